// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* The running kernel's initramfs: which modules it holds (lsinitramfs). */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ops/initramfs.h"

extern char **environ;

int initramfs_image(struct cli *cli, char **image)
{
	const char *env = secure_getenv("DDCTL_INITRAMFS");
	struct utsname u;
	int r;

	if (env && *env)
		r = (*image = strdup(env)) ? 0 : -1;
	else if (uname(&u) < 0)
		return -errno;
	else
		r = asprintf(image, "%s/boot/initrd.img-%s", ddctl_get_config_root(cli->ctx), u.release);
	if (r < 0) {
		*image = NULL;
		return -ENOMEM;
	}
	if (access(*image, F_OK) == 0)
		return 0;
	free(*image);
	*image = NULL;
	return -ENOENT;
}

/* A listed path's module name: "x/virtio-net.ko.zst" is "virtio_net". */
static bool module_of_path(const char *path, char *name, size_t size)
{
	const char *base = strrchr(path, '/'), *ko;
	size_t len;

	base = base ? base + 1 : path;
	ko = strstr(base, ".ko");
	if (!ko || (ko[3] && strcmp(ko + 3, ".xz") && strcmp(ko + 3, ".zst") && strcmp(ko + 3, ".gz")))
		return false;
	len = (size_t)(ko - base);
	if (!len || len >= size)
		return false;
	memcpy(name, base, len);
	name[len] = '\0';
	return ddctl_module_normalize(name, name, size) == 0;
}

static void mark_held(const char *path, char *const *modules, size_t n, bool *held)
{
	char name[256];
	size_t i;

	if (!module_of_path(path, name, sizeof(name)))
		return;
	for (i = 0; i < n; i++)
		if (!strcmp(modules[i], name))
			held[i] = true;
}

/* lsinitramfs IMAGE, its output on a pipe (*@out), its errors discarded */
static int spawn_lister(const char *image, pid_t *pid, FILE **out)
{
	char *argv[] = { "lsinitramfs", (char *)image, NULL };
	posix_spawn_file_actions_t fa;
	int p[2], r;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	r = posix_spawnp(pid, "lsinitramfs", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (r) {
		close(p[0]);
		return -r;
	}
	*out = fdopen(p[0], "r");
	if (!*out) {
		close(p[0]);
		waitpid(*pid, NULL, 0);
		return -ENOMEM;
	}
	return 0;
}

int initramfs_find_modules(const char *image, char *const *modules, size_t n, bool *held)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *out = NULL;
	pid_t pid;
	int r, status;

	memset(held, 0, n * sizeof(*held));
	r = spawn_lister(image, &pid, &out);
	if (r < 0)
		return r;
	while ((len = getline(&line, &cap, out)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		mark_held(line, modules, n, held);
	}
	free(line);
	fclose(out);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		memset(held, 0, n * sizeof(*held));
		return WIFEXITED(status) && WEXITSTATUS(status) == 127 ? -ENOENT : -EIO;
	}
	return 0;
}
