// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Modules loaded during a follow/run session: the module-load uevents the
 * session listens to, the session's queries applied to such a module and
 * its printing sites added to the followed ones. A module the session's
 * load-time file names got them at load (again they change nothing), and
 * gets its own defaults when the session ends; another one gets a session
 * of its own, joined to the session, that puts back what it had when it
 * loaded.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ops/commit.h"
#include "ops/modload.h"
#include "ops/state.h"
#include "output/message.h"

extern char **environ;

static void drop(struct ddctl_kmsg_record *r)
{
	free((char *)r->text);
	free((char *)r->device);
	free((char *)r->subsystem);
	memset(r, 0, sizeof(*r));
}

void cli_modload_say(struct cli *cli, struct ddctl_session *s)
{
	const char *path = ddctl_session_get_load_config_path(s);
	size_t i, n = ddctl_session_get_module_count(s);

	if (!path || !n || cli->quiet)
		return;
	cli_note(cli, "modules that load during the session get its queries at load (%s):", path);
	for (i = 0; i < n; i++)
		fprintf(stderr, " %s", ddctl_session_get_module(s, i));
	fputc('\n', stderr);
}

/*
 * udevd's libkmod reads modprobe.d when udevd starts, then checks the
 * directories it found then for changes at most every 3 s, when an event
 * comes: a module udev loads right after a load-time file came or went
 * could miss it, or keep its options. `udevadm control --reload` makes
 * udevd check at once. A /run/modprobe.d that did not exist when udevd
 * started is never looked at again (ddctl-watch.service, which makes it,
 * starts before udevd). Only for the real /run (no config root) and a
 * running udevd.
 */
void cli_modload_udev_reload(struct cli *cli)
{
	/* udevadm's own bound on the wait (its default is 60 s) */
	char *argv[] = { "udevadm", "control", "--reload", "--timeout=5", NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, deflt;
	char **envp;
	size_t n = 0, i, j;
	int status;
	pid_t pid;

	if (*ddctl_get_config_root(cli->ctx) || access("/run/udev/control", F_OK) < 0)
		return;
	/* the environment without NOTIFY_SOCKET: udevadm is not the service */
	while (environ[n])
		n++;
	envp = calloc(n + 1, sizeof(*envp));
	if (!envp)
		return;
	for (i = j = 0; i < n; i++)
		if (strncmp(environ[i], "NOTIFY_SOCKET=", 14))
			envp[j++] = environ[i];
	/* no signal blocked or caught in the child (watch blocks SIGHUP, SIGTERM, SIGINT) */
	sigemptyset(&none);
	sigemptyset(&deflt);
	sigaddset(&deflt, SIGHUP);
	sigaddset(&deflt, SIGTERM);
	sigaddset(&deflt, SIGINT);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &deflt);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
	if (posix_spawnp(&pid, "udevadm", &fa, &attr, argv, envp) == 0 &&
	    (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)))
		cli_warn(cli, "warning: udevadm control --reload failed: a module udev loads within 3 s may not get the new load-time options\n");
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	free(envp);
}

void cli_modload_open(struct cli *cli, struct ddctl_uevent_listener **l)
{
	int r = ddctl_uevent_listener_new(cli->ctx, l);

	if (r < 0) {
		*l = NULL;
		cli_warn(cli, "warning: cannot listen for module loads (%s): the sites of modules loaded during the session are not followed\n",
			 strerror(-r));
	}
}

/* @module's queries of @user and the decoration, committed quietly. */
static int apply_to_module(struct cli *cli, struct ddctl_queryset *user,
			   unsigned int decoration, const char *module)
{
	struct ddctl_queryset *set = NULL;
	struct cli_commit how = { .quiet = true };
	char word[DDCTL_FLAGS_BUFSZ], *deco = NULL;
	int r = ddctl_queryset_new_for_module(user, module, &set);

	if (r < 0 || ddctl_queryset_get_count(set) == 0) {
		ddctl_queryset_unref(set);
		return r < 0 ? r : 0;
	}
	ddctl_flags_format(decoration, word);
	word[0] = '+';
	if (decoration && asprintf(&deco, "module %s %s", module, word) < 0)
		r = -ENOMEM;
	if (!r && deco)
		r = ddctl_queryset_parse(set, deco, 0);
	free(deco);
	if (!r) {
		cli_set_commit(cli, set, &how);
		r = how.error;
	}
	ddctl_queryset_unref(set);
	return r < 0 ? r : 1;
}

/* Does @user select sites of @module (a query for it, or for every module)? */
static bool selects(struct ddctl_queryset *user, const char *module)
{
	struct ddctl_queryset *set = NULL;
	bool any = ddctl_queryset_new_for_module(user, module, &set) == 0 &&
		   ddctl_queryset_get_count(set) > 0;

	ddctl_queryset_unref(set);
	return any;
}

static bool configured_at_load(struct ddctl_session *s, const char *module)
{
	size_t i, n = ddctl_session_get_module_count(s);

	for (i = 0; i < n; i++)
		if (!strcmp(ddctl_session_get_module(s, i), module))
			return true;
	return false;
}

/*
 * Another module the queries select (a wildcard, insmod of a module the
 * file names not): a session of its own on its state now, joined to the
 * session (its restore script brings the module back to this state),
 * its set committed after the record has it.
 */
static int join_module(struct cli *cli, struct ddctl_session *s, struct ddctl_queryset *user,
		       unsigned int decoration, const char *cmdline, struct ddctl_table *now,
		       const char *module, size_t *added)
{
	struct ddctl_queryset *set = NULL;
	struct ddctl_session *sub = NULL;
	struct cli_commit how = { .quiet = true, .table = now };
	int r = ddctl_queryset_new_for_module(user, module, &set);

	if (!r)
		r = ddctl_session_new(set, now, decoration, &sub);
	if (!r && ddctl_session_get_change_count(sub) && !ddctl_session_get_path(s))
		r = ddctl_session_save(s, cmdline);
	if (!r)
		r = ddctl_session_merge(s, sub);
	if (!r && ddctl_session_get_change_count(sub)) {
		cli_set_commit(cli, ddctl_session_get_set(sub), &how);
		r = how.error;
	}
	if (!r)
		*added = ddctl_table_get_count(ddctl_session_get_sites(sub));
	ddctl_session_free(sub);
	ddctl_queryset_unref(set);
	return r;
}

int cli_modload_handle(struct cli *cli, struct ddctl_uevent_listener *l,
		       struct ddctl_session *s, struct ddctl_queryset *user,
		       unsigned int decoration, const char *cmdline, size_t *added)
{
	struct ddctl_table *now = NULL;
	char module[256];
	bool locked;
	int r = ddctl_uevent_listener_read(l, module, sizeof(module));

	*added = 0;
	if (r != 1 || !selects(user, module))
		return 0; /* not a module load, forged, or not ours */
	locked = cli_lock(cli);
	r = ddctl_table_read(cli->ctx, &now);
	if (r >= 0 && configured_at_load(s, module)) {
		/* its queries came with the load (again: insmod reads no modprobe.d) */
		r = apply_to_module(cli, user, decoration, module);
		ddctl_table_unref(now);
		now = NULL;
		if (r >= 0)
			r = ddctl_table_read(cli->ctx, &now);
		if (r >= 0)
			r = ddctl_session_follow_module(s, now, module, added);
	} else if (r >= 0) {
		r = join_module(cli, s, user, decoration, cmdline, now, module, added);
	}
	if (locked)
		cli_unlock();
	ddctl_table_unref(now);
	if (r < 0)
		cli_error(cli, "module %s loaded: %s\n", module, strerror(-r));
	else if (*added)
		cli_note(cli, "module %s loaded: following %zu more callsite%s\n", module,
			 *added, *added == 1 ? "" : "s");
	return r < 0 ? r : 0;
}

/* The set that gives @module's sites in @now their defaults, else =_. */
static int module_back(struct cli *cli, struct ddctl_table *now, const char *module,
		       struct ddctl_queryset **back)
{
	char *text = NULL;
	int r = ddctl_queryset_new_module_defaults(now, module, back);

	if (r == 0 || r == -ENOMEM)
		return r;
	/* no defaults known: off, as a module without DEBUG starts */
	cli_warn(cli, "warning: module %s loaded during the session: its defaults are unknown (%s): its callsites are switched off\n",
		 module, strerror(-r));
	r = ddctl_queryset_new(cli->ctx, back);
	if (!r && asprintf(&text, "module %s =_", module) < 0)
		r = -ENOMEM;
	if (!r)
		r = ddctl_queryset_parse(*back, text, 0);
	free(text);
	return r;
}

static bool has_sites(struct ddctl_table *now, const char *module)
{
	size_t i;

	for (i = 0; i < ddctl_table_get_count(now); i++)
		if (!strcmp(ddctl_site_get_module(ddctl_table_get_site(now, i)), module))
			return true;
	return false;
}

int cli_modload_restore(struct cli *cli, struct ddctl_session *s,
			struct ddctl_table *now, struct ddctl_queryset *set)
{
	size_t i, j, n = ddctl_session_get_module_count(s);
	int r = 0;

	for (i = 0; !r && i < n; i++) {
		const char *m = ddctl_session_get_module(s, i);
		struct ddctl_queryset *back = NULL;

		if (!has_sites(now, m))
			continue;
		r = module_back(cli, now, m, &back);
		for (j = 0; !r && j < ddctl_queryset_get_count(back); j++)
			r = ddctl_queryset_parse(set, ddctl_query_get_canonical(
							     ddctl_queryset_get_query(back, j)), 0);
		ddctl_queryset_unref(back);
	}
	return r;
}

void cli_modload_keep(struct cli_modload_lines *k, const struct ddctl_kmsg_record *rec)
{
	struct ddctl_kmsg_record *r;
	size_t slot;

	if (!k->recs && !(k->recs = calloc(CLI_MODLOAD_KEPT, sizeof(*k->recs))))
		return;
	slot = (k->first + k->count) % CLI_MODLOAD_KEPT;
	if (k->count == CLI_MODLOAD_KEPT) { /* full: the oldest goes */
		drop(&k->recs[k->first]);
		k->first = (k->first + 1) % CLI_MODLOAD_KEPT;
		k->count--;
	}
	r = &k->recs[slot];
	*r = *rec;
	r->text = strndup(rec->text, rec->len);
	r->device = rec->device ? strdup(rec->device) : NULL;
	r->subsystem = rec->subsystem ? strdup(rec->subsystem) : NULL;
	if (!r->text || (rec->device && !r->device) || (rec->subsystem && !r->subsystem)) {
		drop(r);
		return;
	}
	k->count++;
}

void cli_modload_replay(struct cli_modload_lines *k,
			void (*fn)(const struct ddctl_kmsg_record *rec, void *data), void *data)
{
	size_t i, n = k->count;

	k->count = 0;
	for (i = 0; i < n; i++) {
		struct ddctl_kmsg_record *r = &k->recs[(k->first + i) % CLI_MODLOAD_KEPT];

		fn(r, data);
		drop(r);
	}
	k->first = 0;
}

void cli_modload_lines_free(struct cli_modload_lines *k)
{
	size_t i;

	for (i = 0; i < k->count; i++)
		drop(&k->recs[(k->first + i) % CLI_MODLOAD_KEPT]);
	free(k->recs);
	memset(k, 0, sizeof(*k));
}
