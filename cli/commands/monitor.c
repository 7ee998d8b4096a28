// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl monitor: the kernel's change notifications, as they happen. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands/commands.h"
#include "output/escape.h"
#include "output/json.h"
#include "output/message.h"

static int print_event(const struct ddctl_event *ev, void *data)
{
	struct cli *cli = data;
	struct json_writer w;

	if (cli->json) {
		json_init(&w, stdout);
		json_begin_object(&w);
		json_key(&w, "queries");
		if (ev->queries)
			json_string(&w, ev->queries);
		else
			json_null(&w);
		json_key(&w, "sites_changed");
		json_uint(&w, ev->sites_changed);
		json_key(&w, "keys_patched");
		json_uint(&w, ev->keys_patched);
		json_key(&w, "generation");
		json_uint(&w, ev->generation);
		json_end_object(&w);
	} else {
		printf("changed %u site%s, patched %u key%s: ", ev->sites_changed,
		       ev->sites_changed == 1 ? "" : "s", ev->keys_patched,
		       ev->keys_patched == 1 ? "" : "s");
		if (ev->queries)
			print_escaped_format(stdout, ev->queries);
		else
			printf("(the kernel left out the queries: more than 16 KiB)");
		printf("\n");
	}
	fflush(stdout);
	return 0;
}

/*
 * The socket overflowed: the kernel dropped notifications this monitor did
 * not read in time. Say so where each reader looks: a JSON line for
 * scripts, a warning on stderr for people. The subscription goes on.
 */
static void report_lost(struct cli *cli)
{
	struct json_writer w;

	if (cli->json) {
		json_init(&w, stdout);
		json_begin_object(&w);
		json_key(&w, "events_lost");
		json_bool(&w, true);
		json_end_object(&w);
		fflush(stdout);
	}
	fprintf(stderr, "ddctl: notifications lost: the kernel sent more than this monitor read in time, so changes are missing here ('ddctl list' shows the state now)\n");
}

int cmd_monitor(struct cli *cli, const struct cli_opts *opts, int argc,
	        char **argv)
{
	struct ddctl_monitor *mon = NULL;
	int r;

	r = ddctl_monitor_new(cli->ctx, &mon);
	if (r == -ENOENT) {
		cli_error(cli, "the kernel has no dyndbg netlink family: no change notifications (see ddctl info)\n");
		return EXIT_REFUSED;
	}
	if (r < 0) {
		cli_error(cli, "cannot subscribe to change notifications: %s\n", strerror(-r));
		return EXIT_REFUSED;
	}
	/* on stderr in both modes: scripts wait for it (subscribed) */
	fprintf(stderr, "ddctl: waiting for changes (Ctrl-C to stop)\n");
	do {
		r = ddctl_monitor_read(mon, print_event, cli);
		if (r == -ENOBUFS)
			report_lost(cli);
	} while (r == 0 || r == -EINTR || r == -ENOBUFS);
	ddctl_monitor_free(mon);
	cli_error(cli, "reading notifications: %s\n", strerror(-r));
	return EXIT_REFUSED;
}
