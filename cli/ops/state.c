// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* The state commands work on: the callsite table, the backend, the run directory. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ops/state.h"
#include "output/message.h"
#include "util/util.h"

int cli_read_table(struct cli *cli, struct ddctl_table **table)
{
	const char *path;
	int r;

	if (cli->table) {
		*table = ddctl_table_ref(cli->table);
		return EXIT_OK;
	}
	r = ddctl_get_control_path(cli->ctx, &path);
	if (r == -ENOENT) {
		cli_error(cli, "%s\n", CLI_NO_CONTROL);
		return EXIT_REFUSED;
	}
	cli_lib_error_forget();
	if (r == 0)
		r = ddctl_table_read(cli->ctx, table);
	if (r < 0 && !cli_lib_error()) /* the library's message is the report */
		cli_error(cli, "cannot read %s: %s\n", path, strerror(-r));
	return r < 0 ? EXIT_REFUSED : EXIT_OK;
}

/* How sets reach the kernel. */
const char *cli_backend_name(struct cli *cli)
{
	const char *path;

	if (ddctl_get_control_path(cli->ctx, &path) < 0)
		return "none";
	return ddctl_get_backend(cli->ctx) == DDCTL_BACKEND_NETLINK ? "netlink" : "control-file";
}

/* The boot snapshot as messages name it: below $DDCTL_RUN_DIR when set. */
const char *cli_boot_snapshot_name(void)
{
	static char *name;

	if (!name && ddctl_boot_state_get_path(&name) < 0)
		name = NULL;
	return name ? name : "/run/ddctl/boot.conf";
}

/*
 * Why there is no boot snapshot: the units that take it at boot are not
 * enabled, did not take it at this boot, or there is no systemd.
 */
const char *cli_no_snapshot_reason(void)
{
	static const char *const wants[] = {
		"/etc/systemd/system/sysinit.target.wants/ddctl-watch.service",
		"/etc/systemd/system/sysinit.target.wants/ddctl.service",
	};
	size_t i;

	if (access("/run/systemd/system", F_OK) < 0)
		return "'ddctl save --boot' takes it early at boot, before any configuration applies (ddctl.service does under systemd)";
	for (i = 0; i < ARRAY_SIZE(wants); i++)
		if (access(wants[i], F_OK) == 0)
			return "the units are enabled but did not take one at this boot (enabled since, or it failed: journalctl -b -u ddctl-watch -u ddctl); reboot, or 'ddctl save --boot' keeps the state now";
	return "ddctl.service and ddctl-watch.service are not enabled, so no boot took one (systemctl enable ddctl.service ddctl-watch.service, then reboot); 'ddctl save --boot' keeps the state now instead";
}

static int warn_ended(struct ddctl_session *s, void *data)
{
	if (!ddctl_session_is_running(s))
		cli_warn(data, "the session of pid %ld (%s) ended without restoring its callsites: run 'ddctl sessions --restore'\n",
			 ddctl_session_get_pid(s), ddctl_session_get_command(s));
	return 0;
}

/* Any command: say so when a session was killed before it could restore. */
void cli_check_sessions(struct cli *cli)
{
	ddctl_session_foreach(cli->ctx, warn_ended, cli);
}

static struct ddctl_lock *lock;

/*
 * Take ddctl's lock before reading the state a change is computed from,
 * saying so when another ddctl holds it (nothing under --check, which
 * writes nothing). Returns true when this call took it (the caller lets
 * go with cli_unlock()), false when it was held already or cannot be had
 * (a run directory this user cannot write: the change goes on without).
 */
bool cli_lock(struct cli *cli)
{
	int r;

	if (lock || cli->check)
		return false;
	r = ddctl_lock_new(cli->ctx, DDCTL_LOCK_NOWAIT, &lock);
	if (r == -EWOULDBLOCK) {
		if (!cli->quiet)
			cli_note(cli, "waiting for another ddctl to finish its change\n");
		r = ddctl_lock_new(cli->ctx, 0, &lock);
	}
	return r == 0;
}

void cli_unlock(void)
{
	ddctl_lock_free(lock);
	lock = NULL;
}
