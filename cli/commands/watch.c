// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl watch: apply the configuration to each module as it is loaded.
 * Module-load uevents come from the library's uevent listener, which
 * accepts only the kernel's messages; each new module gets the
 * configuration restricted to it, as one set. When uevents were lost
 * (the socket overflowed), every loaded module gets it again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands/commands.h"
#include "ops/commit.h"
#include "ops/config.h"
#include "output/json.h"
#include "output/message.h"

/* watch --json: one line per module, the set's members after "module". */
static void json_event(struct json_writer *w, void *data)
{
	json_key(w, "event");
	json_string(w, "module-loaded");
	json_key(w, "module");
	json_string(w, data);
}

static void apply_to_module(struct cli *cli, struct ddctl_queryset *config,
			    const char *module)
{
	struct ddctl_queryset *set = NULL;
	struct cli_commit how = { .json_head = json_event, .data = (void *)module };
	int st = EXIT_OK;

	if (ddctl_queryset_new_for_module(config, module, &set) < 0) {
		cli_error(cli, "%s: out of memory\n", module);
		return;
	}
	if (cli->verbose && !cli->json)
		printf("module %s loaded: %zu quer%s\n", module,
		       ddctl_queryset_get_count(set),
		       ddctl_queryset_get_count(set) == 1 ? "y" : "ies");
	if (ddctl_queryset_get_count(set) || cli->json)
		st = cli_set_commit(cli, set, &how);
	if (cli->json)
		cli_json_errors(st); /* each event's errors on their own line */
	fflush(stdout);
	ddctl_queryset_unref(set);
}

/* watch -v: what it waits for, on stderr (stdout has the per-module lines). */
static void say_waiting(struct cli *cli, struct ddctl_queryset *config)
{
	const char *path;
	size_t n = ddctl_queryset_get_count(config);

	cli_error(cli, "waiting for modules to load (kernel uevents); %zu configured quer%s apply to each (Ctrl-C to stop)\n",
		  n, n == 1 ? "y" : "ies");
	if (ddctl_get_control_path(cli->ctx, &path) < 0 || access(path, F_OK) < 0)
		cli_error(cli, "%s; modules that load are still applied once it exists\n",
			  CLI_NO_CONTROL);
}

/* Uevents were lost: the configuration again for every loaded module. */
static void apply_to_loaded(struct cli *cli, struct ddctl_queryset *config)
{
	struct ddctl_queryset *set = NULL;
	struct cli_commit how = { 0 };
	int r;

	cli_error(cli, "uevents were lost (receive buffer overflow): applying the configuration to every loaded module\n");
	r = ddctl_queryset_new_for_loaded(config, &set);
	if (r < 0) {
		cli_error(cli, "cannot list the loaded modules: %s\n", strerror(-r));
		return;
	}
	if (cli->verbose)
		printf("loaded modules: %zu quer%s\n", ddctl_queryset_get_count(set),
		       ddctl_queryset_get_count(set) == 1 ? "y" : "ies");
	if (ddctl_queryset_get_count(set))
		cli_set_commit(cli, set, &how);
	fflush(stdout);
	ddctl_queryset_unref(set);
}

/* One uevent; false when the watcher cannot go on. */
static bool handle_uevent(struct cli *cli, struct ddctl_uevent_listener *l,
			  struct ddctl_queryset *config)
{
	char module[256];
	int r = ddctl_uevent_listener_read(l, module, sizeof(module));

	switch (r) {
	case 1:
		apply_to_module(cli, config, module);
		return true;
	case 0:
	case -EINTR:
		return true;
	case -EPERM:
		cli_error(cli, "ignored a uevent not sent by the kernel\n");
		return true;
	case -EMSGSIZE:
		cli_error(cli, "ignored a uevent longer than the kernel sends (truncated)\n");
		return true;
	case -EINVAL:
	case -ENAMETOOLONG:
		cli_error(cli, "ignored a module-load uevent without a valid module name\n");
		return true;
	case -ENOBUFS:
		apply_to_loaded(cli, config);
		return true;
	}
	cli_error(cli, "reading uevents: %s\n", strerror(-r));
	return false;
}

int cmd_watch(struct cli *cli, const struct cli_opts *opts, int argc,
	      char **argv)
{
	struct ddctl_queryset *config = NULL;
	struct ddctl_uevent_listener *l = NULL;
	int st, r;

	st = cli_load_config(cli, &config);
	if (st)
		return st;
	r = ddctl_uevent_listener_new(cli->ctx, &l);
	if (r < 0) {
		cli_error(cli, "cannot listen for uevents: %s\n", strerror(-r));
		ddctl_queryset_unref(config);
		return EXIT_REFUSED;
	}
	if (cli->verbose)
		say_waiting(cli, config);
	while (handle_uevent(cli, l, config))
		;
	ddctl_uevent_listener_free(l);
	ddctl_queryset_unref(config);
	return EXIT_REFUSED;
}
