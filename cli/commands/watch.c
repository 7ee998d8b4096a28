// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl watch: apply the configuration to each module as it is loaded.
 * Module-load uevents come from the library's uevent listener, which
 * accepts only the kernel's messages; each new module gets the
 * configuration restricted to it, as one set. When uevents were lost
 * (the socket overflowed), every loaded module gets it again.
 *
 * Under systemd (ddctl-watch.service, Type=notify) the watcher says
 * READY=1 once it listens, so that units ordered after it (udev's
 * coldplug) cannot load a module it would miss. SIGHUP re-reads the
 * configuration (ExecReload=; RELOADING=1, then READY=1); a configuration
 * that does not load then keeps the previous one. A file with a broken
 * query is said (FILE:LINE) and left out; the other files apply.
 *
 * The configuration's queries that name one module are also written as
 * load-time options (/run/modprobe.d/ddctl-config.conf) when it starts and
 * reloads, so that a module modprobe or udev loads gets them before its
 * init and probe print; the uevent comes after those. SIGTERM and SIGINT
 * end the watcher and remove the file (if it is still the one it wrote).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands/commands.h"
#include "ops/commit.h"
#include "ops/config.h"
#include "ops/modload.h"
#include "ops/notify.h"
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

static volatile sig_atomic_t reload_wanted, stop_wanted;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		reload_wanted = 1;
	else
		stop_wanted = 1;
}

/* The load-time file this watcher wrote last (its identity: another may replace it). */
struct load_file {
	char *path;
	dev_t dev;
	ino_t ino;
};

/*
 * The load-time file of @config; udevd told to read modprobe.d again
 * (@udev: not at the start, which ddctl-watch.service puts before udevd:
 * asking udevd's socket then would start udevd and wait for it).
 */
static void write_load_options(struct cli *cli, struct ddctl_queryset *config,
			       struct load_file *lf, bool udev)
{
	struct stat st;
	int r;

	if (cli->check)
		return; /* --check writes nothing */
	free(lf->path);
	lf->path = NULL;
	r = ddctl_config_write_load_options(config, &lf->path);
	if (r < 0)
		cli_warn(cli, "warning: cannot write the load-time options %s: %s: modules that load get the configuration at their load uevent, after their init\n",
			 lf->path ? lf->path : "in /run/modprobe.d", strerror(-r));
	if (r >= 0 && lf->path && lstat(lf->path, &st) == 0) {
		lf->dev = st.st_dev;
		lf->ino = st.st_ino;
	} else {
		free(lf->path); /* none written: none to remove */
		lf->path = NULL;
	}
	if (r >= 0 && udev)
		cli_modload_udev_reload(cli);
}

/*
 * The load-time file removed when it is still the one this watcher wrote:
 * a second watcher (run by hand) that replaced it since keeps it.
 */
static int remove_load_options(struct cli *cli, struct load_file *lf)
{
	struct stat st;
	int r = 0;

	if (lf->path && lstat(lf->path, &st) == 0 && st.st_dev == lf->dev &&
	    st.st_ino == lf->ino)
		r = ddctl_config_remove_load_options(cli->ctx);
	free(lf->path);
	lf->path = NULL;
	return r;
}

static void notify(struct cli *cli, const char *state)
{
	int r = cli_notify(state);

	if (r < 0)
		cli_error(cli, "cannot notify the service manager ($NOTIFY_SOCKET): %s\n",
			  strerror(-r));
}

/* SIGHUP: the configuration again; the old one stays when it does not load. */
static void reload_config(struct cli *cli, struct ddctl_queryset **config,
			  struct load_file *lf)
{
	struct ddctl_queryset *fresh = NULL;
	unsigned int skipped;
	size_t n;

	notify(cli, "RELOADING=1");
	if (cli_load_config_valid(cli, &fresh, &skipped) == EXIT_OK) {
		ddctl_queryset_unref(*config);
		*config = fresh;
		write_load_options(cli, fresh, lf, true);
		n = ddctl_queryset_get_count(fresh);
		cli_note(cli, "re-read the configuration: %zu quer%s apply to each module that loads\n",
			 n, n == 1 ? "y" : "ies");
	} else {
		ddctl_queryset_unref(fresh);
		cli_error(cli, "the configuration did not load: the previous one stays in force\n");
	}
	notify(cli, "READY=1");
}

/*
 * Wait for a uevent or a signal: SIGHUP, SIGTERM and SIGINT are blocked
 * except inside ppoll(), so one that arrives between two waits is not
 * lost. 1: a uevent is there.
 */
static int wait_event(int fd, const sigset_t *during)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r = ppoll(&p, 1, NULL, during);

	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	return 1;
}

int cmd_watch(struct cli *cli, const struct cli_opts *opts, int argc,
	      char **argv)
{
	struct ddctl_queryset *config = NULL;
	struct ddctl_uevent_listener *l = NULL;
	struct load_file lf = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	static const int sigs[] = { SIGHUP, SIGTERM, SIGINT };
	sigset_t mask, during;
	unsigned int skipped;
	bool go_on = true;
	size_t i;
	int st, r;

	/* blocked from here on: a signal during the start is seen at the first wait */
	sigemptyset(&mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&mask, sigs[i]);
	sigprocmask(SIG_BLOCK, &mask, &during);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		sigdelset(&during, sigs[i]);
		sigaction(sigs[i], &sa, NULL);
	}
	/* a broken file is said and left out: the watcher runs on the others */
	st = cli_load_config_valid(cli, &config, &skipped);
	if (st)
		return st;
	r = ddctl_uevent_listener_new(cli->ctx, &l);
	if (r < 0) {
		cli_error(cli, "cannot listen for uevents: %s\n", strerror(-r));
		ddctl_queryset_unref(config);
		return EXIT_REFUSED;
	}
	write_load_options(cli, config, &lf, false);
	if (cli->verbose)
		say_waiting(cli, config);
	notify(cli, "READY=1");
	while (go_on && !stop_wanted) {
		r = wait_event(ddctl_uevent_listener_get_fd(l), &during);
		if (stop_wanted)
			break;
		if (reload_wanted) {
			reload_wanted = 0;
			reload_config(cli, &config, &lf);
		}
		if (r < 0) {
			cli_error(cli, "waiting for uevents: %s\n", strerror(-r));
			break;
		}
		if (r > 0)
			go_on = handle_uevent(cli, l, config);
	}
	if (stop_wanted)
		notify(cli, "STOPPING=1");
	/* no module loads with the configuration's options once it stops */
	r = remove_load_options(cli, &lf);
	if (r < 0)
		cli_error(cli, "cannot remove the load-time options: %s\n", strerror(-r));
	ddctl_uevent_listener_free(l);
	ddctl_queryset_unref(config);
	return stop_wanted && r >= 0 ? EXIT_OK : EXIT_REFUSED;
}
