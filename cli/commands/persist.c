// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl persist: the configuration as dyndbg= modprobe options; --cmdline:
 * the configuration (or the queries given) as the kernel command line's
 * dyndbg words, for built-in and initramfs drivers, with how to add them
 * to the boot loader.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "ops/config.h"
#include "ops/initramfs.h"
#include "ops/input.h"
#include "output/json.h"
#include "output/message.h"

/*
 * The written modules the running kernel's initramfs holds: it loads them
 * with its own copy of modprobe.d, which update-initramfs renews.
 */
struct initramfs_hint {
	char *image;    /* NULL: no image (or another file): nothing to say */
	char **modules; /* the modules of the options, normalised */
	bool *held;     /* which of them the image holds */
	size_t n;
	int r;          /* listing the image: 0 or -errno */
};

struct written {
	struct json_writer w;
	bool file; /* "file" has its value and "modules" is open */
};

static void print_module(struct written *wr, const char *module, const char *options)
{
	json_begin_object(&wr->w);
	json_key(&wr->w, "module");
	json_string(&wr->w, module);
	json_key(&wr->w, "options");
	json_string(&wr->w, options);
	json_end_object(&wr->w);
}

/* The file "modules" belongs to: the source of the first of ddctl's own. */
static void open_modules(struct written *wr, const char *file)
{
	json_string(&wr->w, file);
	json_key(&wr->w, "modules");
	json_begin_array(&wr->w);
	wr->file = true;
}

static int own_options(const char *module, const char *options,
		       const char *source, void *data)
{
	struct written *wr = data;

	if (strcmp(source, "modprobe.d")) { /* ddctl's own file */
		if (!wr->file)
			open_modules(wr, source);
		print_module(wr, module, options);
	}
	return 0;
}

/* The "options MODULE ..." lines of @text as JSON members; @text is cut up. */
static void print_options_lines(struct written *wr, char *text)
{
	char *line, *save = NULL, *opts, module[256];
	int end;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* the options follow the module's own word, not a match inside "options" */
		if (sscanf(line, "options %255s%n", module, &end) != 1)
			continue;
		opts = line + end;
		print_module(wr, module, opts + strspn(opts, " "));
	}
}

/*
 * persist --json: {"file":PATH,"modules":[{"module":M,"options":O}]}, from
 * @text (what is or would be written) or else the file ddctl wrote.
 */
static void print_initramfs_json(struct json_writer *w, const struct initramfs_hint *h)
{
	size_t i, held = 0;

	for (i = 0; i < h->n; i++)
		held += h->held[i];
	json_key(w, "initramfs");
	if (!h->image || (!h->r && !held)) {
		json_null(w);
		return;
	}
	json_begin_object(w);
	json_key(w, "image");
	json_string(w, h->image);
	json_key(w, "modules");
	if (h->r) {
		json_null(w);
		json_key(w, "error");
		json_string(w, strerror(-h->r));
	} else {
		json_begin_array(w);
		for (i = 0; i < h->n; i++)
			if (h->held[i])
				json_string(w, h->modules[i]);
		json_end_array(w);
	}
	json_key(w, "update");
	json_string(w, INITRAMFS_UPDATE);
	json_end_object(w);
}

static void print_json(struct cli *cli, const char *path, char *text,
		       const struct initramfs_hint *h)
{
	struct written wr = { .file = false };
	char *own = NULL;

	json_init(&wr.w, stdout);
	json_begin_object(&wr.w);
	json_key(&wr.w, "file");
	if (!path && !text) {
		ddctl_module_foreach_persistent(cli->ctx, own_options, &wr);
	} else {
		open_modules(&wr, path);
		if (!text)
			text = own = cli_read_file(path);
		if (text)
			print_options_lines(&wr, text);
		free(own);
	}
	if (!wr.file)
		open_modules(&wr, NULL);
	json_end_array(&wr.w);
	print_initramfs_json(&wr.w, h);
	json_end_object(&wr.w);
}

/* The modules of @text's "options MODULE ..." lines, each once. */
static int modules_of_text(const char *text, struct initramfs_hint *h)
{
	char module[256], **grown;
	const char *line, *nl;
	size_t i;

	for (line = text; *line; line = nl ? nl + 1 : line + strlen(line)) {
		nl = strchr(line, '\n');
		if (sscanf(line, "options %255s", module) != 1 ||
		    ddctl_module_normalize(module, module, sizeof(module)) < 0)
			continue;
		for (i = 0; i < h->n && strcmp(h->modules[i], module); i++)
			;
		if (i < h->n)
			continue;
		grown = realloc(h->modules, (h->n + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		h->modules = grown;
		if (!(h->modules[h->n] = strdup(module)))
			return -ENOMEM;
		h->n++;
	}
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* A file of @path's name in a modprobe.d directory (NULL: ddctl's own). */
static bool in_modprobe_d(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	size_t len;

	if (!path)
		return true;
	if (!slash)
		return false;
	len = (size_t)(slash - path);
	return len >= 11 && !memcmp(slash - 11, "/modprobe.d", 11);
}

/*
 * Which of the modules of @text (the options for @path) the running
 * kernel's initramfs holds; nothing is looked at unless the image exists.
 */
static void initramfs_check(struct cli *cli, const char *path, const char *text,
			    struct initramfs_hint *h)
{
	if (!in_modprobe_d(path) || initramfs_image(cli, &h->image) < 0)
		return;
	if (modules_of_text(text, h) < 0 || !(h->held = calloc(h->n + 1, sizeof(*h->held)))) {
		h->r = -ENOMEM;
		return;
	}
	if (h->n)
		h->r = initramfs_find_modules(h->image, h->modules, h->n, h->held);
}

/* @h's modules, all or those the image holds, as "a, b" (malloc'd; NULL: none). */
static char *module_names(const struct initramfs_hint *h, bool all)
{
	char *names = NULL;
	size_t i, len = 0;
	FILE *f = open_memstream(&names, &len);

	if (!f)
		return NULL;
	for (i = 0; i < h->n; i++)
		if (all || h->held[i])
			fprintf(f, "%s%s", ftell(f) ? ", " : "", h->modules[i]);
	fclose(f);
	if (!len) {
		free(names);
		return NULL;
	}
	return names;
}

/* The hint on stderr (with --json, its member). */
static void initramfs_say(struct cli *cli, const struct initramfs_hint *h)
{
	char *names;

	if (!h->image || cli->json)
		return;
	names = module_names(h, h->r != 0);
	if (names && h->r)
		cli_note(cli, "cannot list the initramfs %s (%s): if it loads %s, the new options reach it at boot only after %s\n",
			 h->image, h->r == -ENOENT ? "no lsinitramfs: initramfs-tools-core" : strerror(-h->r),
			 names, INITRAMFS_UPDATE);
	else if (names)
		cli_note(cli, "the initramfs %s holds %s, which it loads with its own copy of /etc/modprobe.d: the new options reach them at boot only after %s\n",
			 h->image, names, INITRAMFS_UPDATE);
	free(names);
}

static void initramfs_hint_free(struct initramfs_hint *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		free(h->modules[i]);
	free(h->modules);
	free(h->held);
	free(h->image);
}

/* persist --check: the text that would be written, written nowhere. */
static int persist_check(struct cli *cli, struct ddctl_queryset *set,
			 const char *path)
{
	struct initramfs_hint h = { .r = 0 };
	char *text = NULL;
	int r = ddctl_config_format_modprobe(set, &text);

	if (r < 0) {
		cli_error(cli, "%s\n", strerror(-r));
		return EXIT_REFUSED;
	}
	initramfs_check(cli, path, text, &h);
	if (cli->json) {
		print_json(cli, path, text, &h);
	} else {
		printf("would write %s:\n%s", path ? path : "/etc/modprobe.d/ddctl.conf", text);
		initramfs_say(cli, &h);
	}
	initramfs_hint_free(&h);
	free(text);
	return EXIT_OK;
}

/* COMMAND_LINE_SIZE on x86 and arm64 (2048), less its NUL */
#define CMDLINE_MAX 2047

/* @words as they go inside a shell's double quotes (/etc/default/grub). */
static void print_shell_quoted(const char *words)
{
	for (; *words; words++) {
		if (strchr("\"\\$`", *words))
			fputc('\\', stderr);
		fputc(*words, stderr);
	}
}

/* Where the words go, on standard error (standard output has the words alone). */
static void print_howto(struct cli *cli, const char *words, size_t running, bool grub)
{
	if (cli->quiet)
		return;
	fprintf(stderr, "ddctl: %zu of the kernel command line's %d bytes (the running one uses %zu);\n"
		"ddctl: built-in code applies them at boot, modprobe hands MODULE.dyndbg= to a module it loads.\n",
		strlen(words), CMDLINE_MAX, running);
	if (grub) {
		fputs("ddctl: GRUB: add them to GRUB_CMDLINE_LINUX in /etc/default/grub, e.g.\n"
		      "ddctl:   GRUB_CMDLINE_LINUX=\"... ", stderr);
		print_shell_quoted(words);
		fputs("\"\n"
		      "ddctl:   then run update-grub (elsewhere: grub-mkconfig -o /boot/grub/grub.cfg).\n", stderr);
	}
	fputs("ddctl: systemd-boot: append them to the options line of the entry in\n"
	      "ddctl:   /boot/loader/entries/*.conf (kernel-install and UKIs: /etc/kernel/cmdline).\n"
	      "ddctl: For one boot: edit the entry in the boot menu (e) and append them to its linux line.\n",
	      stderr);
}

static void print_cmdline_json(const char *words, size_t running, bool grub)
{
	struct json_writer w;

	json_init(&w, stdout);
	json_begin_object(&w);
	json_key(&w, "words");
	json_string(&w, words);
	json_key(&w, "bytes");
	json_uint(&w, strlen(words));
	json_key(&w, "limit");
	json_uint(&w, CMDLINE_MAX);
	json_key(&w, "running");
	json_uint(&w, running);
	json_key(&w, "grub");
	json_bool(&w, grub);
	json_end_object(&w);
}

/* persist --cmdline [QUERY...]: the words, checked; nothing is written. */
static int persist_cmdline(struct cli *cli, int argc, char **argv)
{
	struct ddctl_queryset *set = NULL;
	unsigned int features = 0, flags = 0;
	const char *reason = NULL;
	char *text, *words = NULL, *running = NULL;
	size_t bad = 0, now = 0;
	bool grub;
	int r, st;

	if (argc) {
		text = cli_join_args(argc, argv);
		st = text ? cli_parse_queries(cli, text, 0, &set) : EXIT_REFUSED;
		free(text);
	} else {
		st = cli_load_config(cli, &set);
	}
	if (st)
		goto out;
	if (ddctl_get_features(cli->ctx, &features) == 0 && (features & DDCTL_FEATURE_NEGATION))
		flags |= DDCTL_CMDLINE_NEGATION;
	r = ddctl_queryset_format_cmdline(set, flags, &words, &bad, &reason);
	if (r == -EINVAL) {
		cli_error(cli, "query %zu \"%s\" cannot go on the kernel command line: %s\n", bad + 1,
			  ddctl_query_get_canonical(ddctl_queryset_get_query(set, bad)), reason);
		st = EXIT_USAGE;
		goto out;
	} else if (r < 0) {
		cli_error(cli, "%s\n", strerror(-r));
		st = EXIT_REFUSED;
		goto out;
	}
	if (!*words) {
		cli_error(cli, "no queries: nothing for the kernel command line\n");
		st = EXIT_USAGE;
		goto out;
	}
	if (strlen(words) > CMDLINE_MAX) {
		cli_error(cli, "the words take %zu bytes, more than the kernel command line's %d (COMMAND_LINE_SIZE)\n",
			  strlen(words), CMDLINE_MAX);
		st = EXIT_USAGE;
		goto out;
	}
	if (ddctl_get_cmdline(cli->ctx, &running) == 0)
		now = strlen(running);
	if (now && now + 1 + strlen(words) > CMDLINE_MAX)
		cli_warn(cli, "with the running kernel's command line (%zu bytes) they exceed the %d bytes it holds: the kernel would cut them off\n",
			 now, CMDLINE_MAX);
	/* GRUB passes \\ ' and " on with a backslash before each */
	grub = !strpbrk(words, "\\'");
	if (!grub)
		cli_warn(cli, "GRUB adds a backslash before each \\ and ' it passes to the kernel, which breaks these words: give them through systemd-boot, a UKI or the boot menu of another loader\n");
	if (cli->json) {
		print_cmdline_json(words, now, grub);
	} else {
		printf("%s\n", words);
		print_howto(cli, words, now, grub);
	}
out:
	free(words);
	free(running);
	ddctl_queryset_unref(set);
	return st;
}

int cmd_persist(struct cli *cli, const struct cli_opts *opts, int argc,
	        char **argv)
{
	struct initramfs_hint h = { .r = 0 };
	const char *path = argc ? argv[0] : NULL;
	struct ddctl_queryset *set = NULL;
	char *text = NULL;
	int r, st;

	if (opts->cmdline)
		return persist_cmdline(cli, argc, argv);
	/*
	 * modprobe reads only *.conf in modprobe.d: any other name would be a
	 * file nobody reads, most often queries meant for --cmdline written to
	 * a file named after them in the working directory.
	 */
	if (argc > 1 || (path && !ends_with(path, ".conf"))) {
		cli_error(cli, "persist: '%s' is not a modprobe.d file: FILE must end in .conf (modprobe reads no other); for queries use --cmdline QUERY...\n",
			  argc > 1 ? argv[1] : path);
		return EXIT_USAGE;
	}
	st = cli_load_config(cli, &set);
	if (st)
		return st;
	if (cli->check) {
		st = persist_check(cli, set, path);
		ddctl_queryset_unref(set);
		return st;
	}
	r = ddctl_config_write_modprobe(set, path);
	if (r == 0 && ddctl_config_format_modprobe(set, &text) == 0)
		initramfs_check(cli, path, text, &h);
	ddctl_queryset_unref(set);
	free(text);
	if (r < 0)
		return EXIT_REFUSED;
	if (cli->json)
		print_json(cli, path, NULL, &h);
	else
		initramfs_say(cli, &h);
	initramfs_hint_free(&h);
	return EXIT_OK;
}
