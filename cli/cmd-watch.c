// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ddctl watch: apply the configuration to each module as it is loaded.
 * Module-load uevents come from a NETLINK_KOBJECT_UEVENT socket (libmnl);
 * each new module gets the configuration restricted to it, as one set.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include "ddctl-cli.h"

#define UEVENT_GROUP_KERNEL 1

static void apply_to_module(struct cli *cli, struct ddctl_queryset *config,
			    const char *module)
{
	struct ddctl_queryset *set = NULL;

	if (ddctl_queryset_new_for_module(config, module, &set) < 0) {
		cli_error(cli, "%s: out of memory\n", module);
		return;
	}
	if (cli->verbose)
		printf("module %s loaded: %zu quer%s\n", module,
		       ddctl_queryset_get_count(set),
		       ddctl_queryset_get_count(set) == 1 ? "y" : "ies");
	cli_commit_set(cli, set, NULL);
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

int cmd_watch(struct cli *cli, int argc, char **argv)
{
	struct ddctl_queryset *config = NULL;
	char buf[8192], module[256];
	struct mnl_socket *nl;
	ssize_t n;
	int st;

	if (argc > 0) {
		cli_error(cli, "watch takes no arguments\n");
		return EXIT_USAGE;
	}
	st = cli_load_config(cli, &config);
	if (st)
		return st;
	nl = mnl_socket_open(NETLINK_KOBJECT_UEVENT);
	if (!nl || mnl_socket_bind(nl, UEVENT_GROUP_KERNEL, MNL_SOCKET_AUTOPID) < 0) {
		cli_error(cli, "cannot listen for uevents: %s\n", strerror(errno));
		if (nl)
			mnl_socket_close(nl);
		ddctl_queryset_unref(config);
		return EXIT_REFUSED;
	}
	if (cli->verbose)
		say_waiting(cli, config);
	while ((n = mnl_socket_recvfrom(nl, buf, sizeof(buf))) >= 0 || errno == EINTR ||
	       errno == ENOBUFS) {
		if (n > 0 && ddctl_uevent_get_module(buf, (size_t)n, module,
						     sizeof(module)) == 1)
			apply_to_module(cli, config, module);
	}
	cli_error(cli, "reading uevents: %s\n", strerror(errno));
	mnl_socket_close(nl);
	ddctl_queryset_unref(config);
	return EXIT_REFUSED;
}
