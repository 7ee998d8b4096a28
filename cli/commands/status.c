// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl status: what is on now, as systemctl status is for a unit: the
 * enabled sites per module, the state against the boot snapshot and the
 * ddctl.d configuration, the follow/run sessions, the kernel's features,
 * and the sites the kernel command line's dyndbg words set at boot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "ops/config.h"
#include "ops/state.h"
#include "output/json.h"
#include "output/message.h"

struct enabled_module {
	const char *name;
	unsigned int sites, enabled;
};

struct status {
	unsigned int features;
	const char *control;
	size_t sites, enabled;
	struct enabled_module *mods; /* the modules with an enabled site */
	size_t nmods;
	long boot_differ;   /* -1: no boot snapshot */
	long config_differ; /* -1: the configuration could not be evaluated */
	size_t config_queries;
	unsigned int running, ended;
	/* /proc/cmdline: its dyndbg words, the sites they select, as set or changed since */
	bool have_cmdline;
	size_t cmdline_words, cmdline_sites, cmdline_changed;
	struct enabled_module *cmods; /* per module: the sites as the words set them */
	size_t ncmods;
};

/* The modules with enabled sites, in the kernel's order. */
static int count_enabled(struct ddctl_table *table, struct status *s)
{
	size_t i, n = ddctl_table_get_count(table);
	struct enabled_module *m = NULL;
	const char *last = NULL;

	s->mods = calloc(n + 1, sizeof(*s->mods));
	if (!s->mods)
		return -ENOMEM;
	s->sites = n;
	for (i = 0; i < n; i++) {
		const struct ddctl_site *site = ddctl_table_get_site(table, i);
		const char *name = ddctl_site_get_module(site);

		if (!last || strcmp(last, name)) {
			if (m && m->enabled)
				s->nmods++;
			m = &s->mods[s->nmods];
			*m = (struct enabled_module){ name, 0, 0 };
			last = name;
		}
		m->sites++;
		if (ddctl_site_get_flags(site) & DDCTL_FLAG_PRINT) {
			m->enabled++;
			s->enabled++;
		}
	}
	if (m && m->enabled)
		s->nmods++;
	return 0;
}

/* Sites whose flags differ between two tables of the same sites. */
static long differ(struct ddctl_table *a, struct ddctl_table *b)
{
	size_t i;
	long n = 0;

	for (i = 0; i < ddctl_table_get_count(a); i++)
		n += ddctl_site_get_flags(ddctl_table_get_site(a, i)) !=
		     ddctl_site_get_flags(ddctl_table_get_site(b, i));
	return n;
}

/* The live state against the boot snapshot; -1 when there is none. */
static long boot_differ(struct cli *cli, struct ddctl_table *live)
{
	struct ddctl_queryset *script = NULL;
	struct ddctl_table *boot = NULL;
	char *text = NULL;
	long n = -1;

	if (ddctl_boot_state_load(cli->ctx, &text) < 0)
		return -1;
	if (ddctl_queryset_new(cli->ctx, &script) == 0 &&
	    ddctl_queryset_parse(script, text, 0) == 0 &&
	    ddctl_table_new_from_script(live, script, &boot) == 0)
		n = differ(live, boot);
	ddctl_table_unref(boot);
	ddctl_queryset_unref(script);
	free(text);
	return n;
}

/* The sites the configuration would still change: 0 when it is applied. */
static long config_differ(struct cli *cli, struct ddctl_table *live, size_t *queries)
{
	struct ddctl_queryset *set = NULL;
	struct ddctl_plan *plan = NULL;
	long n = -1;

	*queries = 0;
	if (cli_load_config(cli, &set) == EXIT_OK) {
		*queries = ddctl_queryset_get_count(set);
		if (ddctl_plan_new(set, live, &plan) == 0)
			n = (long)ddctl_plan_get_change_count(plan);
	}
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
	return n;
}

/* Does a query of @set select @site? */
static bool selected(struct ddctl_queryset *set, const struct ddctl_site *site)
{
	size_t q;

	for (q = 0; q < ddctl_queryset_get_count(set); q++)
		if (ddctl_query_matches(ddctl_queryset_get_query(set, q), site))
			return true;
	return false;
}

/*
 * The sites the running kernel's command line set: those its dyndbg words
 * select, still as the words leave them (re-applying them changes
 * nothing), per module, or changed since.
 */
static void cmdline_sites(struct cli *cli, struct ddctl_table *live, struct status *s)
{
	struct ddctl_queryset *set = NULL;
	struct ddctl_plan *plan = NULL;
	const struct ddctl_site *changed = NULL;
	struct enabled_module *m = NULL;
	char *text = NULL;
	size_t i, c = 0, n = ddctl_table_get_count(live);
	unsigned int of, nf;

	if (ddctl_get_cmdline(cli->ctx, &text) < 0 || ddctl_queryset_new(cli->ctx, &set) < 0 ||
	    ddctl_queryset_parse_cmdline(set, text, &s->cmdline_words) < 0 ||
	    ddctl_plan_new(set, live, &plan) < 0 || !(s->cmods = calloc(n + 1, sizeof(*s->cmods))))
		goto out;
	s->have_cmdline = true;
	s->cmdline_changed = ddctl_plan_get_change_count(plan);
	if (s->cmdline_changed)
		ddctl_plan_get_change(plan, 0, &changed, &of, &nf);
	for (i = 0; i < n; i++) {
		const struct ddctl_site *site = ddctl_table_get_site(live, i);
		const char *name = ddctl_site_get_module(site);
		bool moved = site == changed;

		if (moved) { /* the changes come in table order */
			changed = NULL;
			if (++c < s->cmdline_changed)
				ddctl_plan_get_change(plan, c, &changed, &of, &nf);
		}
		if (!selected(set, site))
			continue;
		s->cmdline_sites++;
		if (moved)
			continue;
		if (!m || strcmp(m->name, name)) {
			m = &s->cmods[s->ncmods++];
			*m = (struct enabled_module){ name, 0, 0 };
		}
		m->sites++;
	}
out:
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
	free(text);
}

static int on_session(struct ddctl_session *session, void *data)
{
	struct status *s = data;

	if (ddctl_session_is_running(session))
		s->running++;
	else
		s->ended++;
	return 0;
}

static void long_or_null(struct json_writer *w, long v)
{
	if (v >= 0)
		json_int(w, v);
	else
		json_null(w);
}

static void print_json(struct cli *cli, const struct status *s)
{
	struct json_writer w;
	size_t i;

	json_init(&w, stdout);
	json_begin_object(&w);
	json_key(&w, "control");
	json_string(&w, s->control);
	json_key(&w, "backend");
	json_string(&w, cli_backend_name(cli));
	json_key(&w, "negation");
	json_bool(&w, s->features & DDCTL_FEATURE_NEGATION);
	json_key(&w, "transactions");
	json_bool(&w, s->features & DDCTL_FEATURE_TRANSACTIONS);
	json_key(&w, "netlink");
	json_bool(&w, s->features & DDCTL_FEATURE_NETLINK);
	json_key(&w, "sites");
	json_uint(&w, s->sites);
	json_key(&w, "enabled");
	json_uint(&w, s->enabled);
	json_key(&w, "modules");
	json_begin_array(&w);
	for (i = 0; i < s->nmods; i++) {
		json_begin_object(&w);
		json_key(&w, "module");
		json_string(&w, s->mods[i].name);
		json_key(&w, "sites");
		json_uint(&w, s->mods[i].sites);
		json_key(&w, "enabled");
		json_uint(&w, s->mods[i].enabled);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_key(&w, "boot_differ");
	long_or_null(&w, s->boot_differ);
	json_key(&w, "config_queries");
	json_uint(&w, s->config_queries);
	json_key(&w, "config_differ");
	long_or_null(&w, s->config_differ);
	json_key(&w, "sessions_running");
	json_uint(&w, s->running);
	json_key(&w, "sessions_ended");
	json_uint(&w, s->ended);
	json_key(&w, "cmdline_words");
	json_uint(&w, s->cmdline_words);
	json_key(&w, "cmdline_sites");
	json_uint(&w, s->cmdline_sites - s->cmdline_changed);
	json_key(&w, "cmdline_changed");
	json_uint(&w, s->cmdline_changed);
	json_key(&w, "cmdline_modules");
	json_begin_array(&w);
	for (i = 0; i < s->ncmods; i++) {
		json_begin_object(&w);
		json_key(&w, "module");
		json_string(&w, s->cmods[i].name);
		json_key(&w, "sites");
		json_uint(&w, s->cmods[i].sites);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
}

static void print_text(struct cli *cli, const struct status *s)
{
	const char *boot = cli_boot_snapshot_name();
	size_t i;

	printf("control file:  %s%s; backend %s\n", s->control,
	       s->features & DDCTL_FEATURE_CONTROL ? "" : " (not a kernel file)",
	       cli_backend_name(cli));
	printf("kernel:        negation %s, transactions %s, netlink %s\n",
	       s->features & DDCTL_FEATURE_NEGATION ? "yes" : "no (expanded by ddctl)",
	       s->features & DDCTL_FEATURE_TRANSACTIONS ? "yes" : "no",
	       s->features & DDCTL_FEATURE_NETLINK ? "yes" : "no");
	printf("enabled:       %zu of %zu sites, in %zu module%s\n", s->enabled, s->sites,
	       s->nmods, s->nmods == 1 ? "" : "s");
	for (i = 0; i < s->nmods; i++)
		printf("  %-30s %7u of %u\n", s->mods[i].name, s->mods[i].enabled,
		       s->mods[i].sites);
	if (s->boot_differ < 0)
		printf("boot:          no boot snapshot %s (ddctl.service writes it at boot)\n", boot);
	else if (s->boot_differ == 0)
		printf("boot:          as the kernel booted (%s)\n", boot);
	else
		printf("boot:          %ld site%s differ%s from %s ('ddctl diff %s -', 'ddctl reset')\n",
		       s->boot_differ, s->boot_differ == 1 ? "" : "s",
		       s->boot_differ == 1 ? "s" : "", boot, boot);
	if (s->config_differ < 0)
		printf("configuration: cannot be read ('ddctl --check apply-config' says why)\n");
	else if (s->config_queries == 0)
		printf("configuration: none (no ddctl.d files, see ddctl.d(5))\n");
	else if (s->config_differ == 0)
		printf("configuration: applied (%zu quer%s)\n", s->config_queries,
		       s->config_queries == 1 ? "y" : "ies");
	else
		printf("configuration: not applied: %ld site%s would change ('ddctl apply-config')\n",
		       s->config_differ, s->config_differ == 1 ? "" : "s");
	printf("sessions:      %u running, %u ended%s\n", s->running, s->ended,
	       s->ended ? " ('ddctl sessions --restore' undoes them)" : "");
	if (!s->have_cmdline)
		printf("command line:  cannot be read\n");
	else if (!s->cmdline_words)
		printf("command line:  no dyndbg words\n");
	else
		printf("command line:  %zu dyndbg word%s (/proc/cmdline) select %zu site%s: %zu as the words set them, %zu not (changed since, or a module loaded without the words)\n",
		       s->cmdline_words, s->cmdline_words == 1 ? "" : "s", s->cmdline_sites,
		       s->cmdline_sites == 1 ? "" : "s", s->cmdline_sites - s->cmdline_changed,
		       s->cmdline_changed);
	for (i = 0; i < s->ncmods; i++)
		printf("  %-30s %7u as set\n", s->cmods[i].name, s->cmods[i].sites);
}

int cmd_status(struct cli *cli, const struct cli_opts *opts, int argc,
	       char **argv)
{
	struct ddctl_table *table = NULL;
	struct status s = { 0 };
	int st;

	if (ddctl_get_control_path(cli->ctx, &s.control) < 0 ||
	    ddctl_get_features(cli->ctx, &s.features) < 0) {
		cli_error(cli, "%s\n", CLI_NO_CONTROL);
		return EXIT_REFUSED;
	}
	st = cli_read_table(cli, &table);
	if (st)
		return st;
	if (count_enabled(table, &s) < 0) {
		ddctl_table_unref(table);
		return EXIT_REFUSED;
	}
	s.boot_differ = boot_differ(cli, table);
	s.config_differ = config_differ(cli, table, &s.config_queries);
	ddctl_session_foreach(cli->ctx, on_session, &s); /* none readable: none */
	cmdline_sites(cli, table, &s);
	if (cli->json)
		print_json(cli, &s);
	else
		print_text(cli, &s);
	free(s.mods);
	free(s.cmods);
	ddctl_table_unref(table);
	return EXIT_OK;
}
