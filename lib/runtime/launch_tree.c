/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The program's process tree, so that it ends with the program: every
 * descendant, also those that re-parented (a double-forked daemon), is
 * killed when the launch ends (scg_launch_options.keep_children leaves
 * them).
 *
 * Two mechanisms, the first where it can be had:
 *
 *   - a cgroup (v2) of the program's own, made beneath the supervisor's
 *     cgroup, which the child joins before exec: cgroup.kill (Linux 5.14)
 *     ends every process in it at once, whatever forks meanwhile and
 *     wherever it re-parented;
 *   - the supervisor as the tree's subreaper (PR_SET_CHILD_SUBREAPER): a
 *     descendant whose parent dies becomes the supervisor's child, not
 *     init's, and at the end the supervisor kills its children, again and
 *     again until none is left.
 *
 * The subreaper is set in both cases: it makes the supervisor reap the
 * processes cgroup.kill ended, so that the cgroup empties and can be
 * removed.  The supervisor then reaps re-parented descendants as they
 * exit, never a child the caller had before the launch.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/launch_internal.h"

enum { MAX_KIDS = 1024 };

/* Reads the small file @path into @buf (NUL-terminated); its length or -errno. */
static ssize_t read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t len = 0;
	ssize_t n;
	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

/* Where the cgroup v2 hierarchy is mounted, from /proc/self/mountinfo. */
static int cgroup2_mount(char *out, size_t size)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	char line[4096];
	int r = -ENOENT;
	while (r < 0 && fgets(line, sizeof(line), f)) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS... - FSTYPE SOURCE SUPER */
		char root[1024], point[1024], type[64];
		const char *sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*s %*s %*s %1023s %1023s", root, point) != 2 ||
		    sscanf(sep + 3, "%63s", type) != 1)
			continue;
		/* a bind mount of part of the hierarchy would not hold our path */
		if (!strcmp(type, "cgroup2") && !strcmp(root, "/") && strlen(point) < size) {
			snprintf(out, size, "%s", point);
			r = 0;
		}
	}
	fclose(f);
	return r;
}

/* The directory of this process's cgroup v2; 0 or -errno. */
static int own_cgroup_dir(char *out, size_t size)
{
	char mount[1024], cg[4096];
	int r = cgroup2_mount(mount, sizeof(mount));
	if (r < 0)
		return r;
	ssize_t n = read_file("/proc/self/cgroup", cg, sizeof(cg));
	if (n < 0)
		return (int)n;
	/* the v2 line is "0::/PATH" */
	const char *p = strstr(cg, "0::/");
	if (p && p != cg && p[-1] != '\n')
		p = NULL;
	if (!p)
		return -ENOENT;
	p += 3;
	size_t len = strcspn(p, "\n");
	if (len == 1)
		len = 0; /* the root: "/" */
	if ((size_t)snprintf(out, size, "%s%.*s", mount, (int)len, p) >= size)
		return -ENAMETOOLONG;
	return 0;
}

/* Whether a kernel of this release has cgroup.kill (5.14). */
static bool release_has_kill(void)
{
	struct utsname u;
	unsigned major = 0, minor = 0;
	if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 5 || (major == 5 && minor >= 14);
}

bool tree_cgroup_possible(void)
{
	char dir[4096], kill_path[4200];
	if (own_cgroup_dir(dir, sizeof(dir)) < 0 || access(dir, W_OK) < 0)
		return false;
	/* The root cgroup has no cgroup.kill of its own; its children do. */
	snprintf(kill_path, sizeof(kill_path), "%s/cgroup.kill", dir);
	return access(kill_path, F_OK) == 0 || release_has_kill();
}

/* The children of this process (its only thread: the launcher runs single-threaded). */
static size_t list_children(pid_t *out, size_t max)
{
	char path[300], buf[16384];
	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	size_t n = 0;
	if (read_file(path, buf, sizeof(buf)) >= 0) {
		for (char *p = buf, *end; n < max; p = end) {
			long v = strtol(p, &end, 10);
			if (end == p)
				break;
			out[n++] = (pid_t)v;
		}
		return n;
	}
	/* Without CONFIG_PROC_CHILDREN: every process whose parent we are. */
	DIR *d = opendir("/proc");
	struct dirent *e;
	while (d && n < max && (e = readdir(d))) {
		char stat[512];
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (read_file(path, stat, sizeof(stat)) < 0)
			continue;
		const char *close_paren = strrchr(stat, ')');
		int ppid;
		if (close_paren && sscanf(close_paren + 1, " %*c %d", &ppid) == 1 &&
		    ppid == getpid())
			out[n++] = (pid_t)atoi(e->d_name);
	}
	if (d)
		closedir(d);
	return n;
}

static bool is_callers(const struct tree *t, pid_t pid)
{
	for (size_t i = 0; i < t->ncallers; i++)
		if (t->callers[i] == pid)
			return true;
	return false;
}

/* Our children that belong to the tree: neither the caller's, nor the watchdog, nor @skip. */
static size_t tree_children(const struct tree *t, pid_t *out, size_t max, pid_t skip)
{
	pid_t all[MAX_KIDS];
	size_t n = list_children(all, MAX_KIDS), k = 0;
	for (size_t i = 0; i < n && k < max; i++)
		if (all[i] != t->watchdog && all[i] != skip && !is_callers(t, all[i]))
			out[k++] = all[i];
	return k;
}

/* No cgroup after all: closed, removed (it holds no process), forgotten. */
static void drop_cgroup(struct tree *t)
{
	if (t->procs_fd >= 0)
		close(t->procs_fd);
	if (t->kill_fd >= 0)
		close(t->kill_fd);
	/* A killed process that is not ours to reap (an init of a pid namespace
	 * the program had) may still be on its way out. */
	if (t->cgroup && rmdir(t->cgroup) < 0 && errno == EBUSY && t->parent_fd >= 0)
		tree_remove_cgroup(t->parent_fd, getpid());
	if (t->parent_fd >= 0)
		close(t->parent_fd);
	t->procs_fd = t->kill_fd = t->parent_fd = -1;
	free(t->cgroup);
	t->cgroup = NULL;
}

/*
 * Removes the empty cgroups in @dir that launches whose supervisor and
 * watchdog were both killed (syscage dump -- syscage run ..., say) left
 * behind: named for a pid no process has now.  One in use is not empty,
 * and rmdir refuses it.
 */
static void remove_stale(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		int pid;
		char end;
		if (sscanf(e->d_name, TREE_CGROUP_NAME "%c", &pid, &end) != 1 || pid <= 0 ||
		    kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
	}
	if (d)
		closedir(d);
}

/* A cgroup of the launch's own beneath ours; 0 or -errno (then none). */
static int make_cgroup(struct tree *t)
{
	char dir[4096];
	int r = own_cgroup_dir(dir, sizeof(dir));
	if (r < 0)
		return r;
	remove_stale(dir);
	size_t len = strlen(dir) + 32;
	if (!(t->cgroup = malloc(len)))
		return -ENOMEM;
	snprintf(t->cgroup, len, "%s/" TREE_CGROUP_NAME, dir, (int)getpid());
	if (mkdir(t->cgroup, 0755) < 0 &&
	    !(errno == EEXIST && rmdir(t->cgroup) == 0 && mkdir(t->cgroup, 0755) == 0)) {
		r = -errno;
		free(t->cgroup);
		t->cgroup = NULL;
		return r;
	}
	t->parent_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	char path[4200];
	snprintf(path, sizeof(path), "%s/cgroup.procs", t->cgroup);
	t->procs_fd = open(path, O_WRONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/cgroup.kill", t->cgroup);
	t->kill_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (t->procs_fd < 0 || t->kill_fd < 0) {
		r = -errno;
		drop_cgroup(t);
		return r;
	}
	return 0;
}

void tree_init(struct tree *t)
{
	*t = (struct tree){.how = SCG_LAUNCH_TREE_KEPT,
			   .procs_fd = -1,
			   .kill_fd = -1,
			   .parent_fd = -1,
			   .subreaper_was = -1,
			   .watchdog = -1};
}

int tree_remove_cgroup(int parent_fd, pid_t supervisor)
{
	char name[64], events[96], buf[256];
	snprintf(name, sizeof(name), TREE_CGROUP_NAME, (int)supervisor);
	snprintf(events, sizeof(events), "%s/cgroup.events", name);
	/* Killed processes stay in it until reaped (by init, or the next
	 * subreaper): their going shows in cgroup.events.  Bounded. */
	for (int i = 0; i < 200; i++) {
		if (unlinkat(parent_fd, name, AT_REMOVEDIR) == 0 || errno != EBUSY)
			return errno == ENOENT ? 0 : -errno;
		int fd = openat(parent_fd, events, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		if (n > 0) {
			buf[n] = '\0';
			if (!strstr(buf, "populated 0")) {
				struct pollfd pfd = {.fd = fd, .events = POLLPRI};
				poll(&pfd, 1, 10);
			}
		}
		close(fd);
	}
	return -EBUSY;
}

int tree_setup(struct tree *t, bool try_cgroup)
{
	int was = 0;
	if (prctl(PR_GET_CHILD_SUBREAPER, &was, 0L, 0L, 0L) < 0 ||
	    prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L) < 0)
		return -errno;
	t->subreaper_was = was;
	t->how = SCG_LAUNCH_TREE_SUBREAPER;
	/* The caller's own children are none of ours to reap or kill. */
	pid_t kids[MAX_KIDS];
	size_t n = list_children(kids, MAX_KIDS);
	if (n && (t->callers = malloc(n * sizeof(*t->callers)))) {
		memcpy(t->callers, kids, n * sizeof(*kids));
		t->ncallers = n;
	}
	if (try_cgroup && make_cgroup(t) == 0)
		t->how = SCG_LAUNCH_TREE_CGROUP;
	return 0;
}

void tree_child_join(const struct tree *t)
{
	/* A failure shows in tree_confirm(): the subreaper still holds the tree. */
	if (t->procs_fd >= 0)
		(void)!write(t->procs_fd, "0", 1);
}

void tree_confirm(struct tree *t, pid_t program)
{
	if (t->how != SCG_LAUNCH_TREE_CGROUP)
		return;
	char path[64], cg[4096];
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)program);
	const char *name = strrchr(t->cgroup, '/');
	bool joined = false;
	if (read_file(path, cg, sizeof(cg)) >= 0) {
		/* the v2 line ends in our directory's name */
		const char *p = strstr(cg, "0::/");
		size_t len = p ? strcspn(p, "\n") : 0;
		size_t nlen = strlen(name);
		joined = p && len >= nlen && !strncmp(p + len - nlen, name, nlen);
	}
	if (!joined) {
		drop_cgroup(t);
		t->how = SCG_LAUNCH_TREE_SUBREAPER;
	}
}

void tree_reap(struct tree *t, pid_t program)
{
	if (t->how == SCG_LAUNCH_TREE_KEPT)
		return;
	pid_t kids[MAX_KIDS];
	size_t n = tree_children(t, kids, MAX_KIDS, program);
	for (size_t i = 0; i < n; i++)
		waitpid(kids[i], NULL, WNOHANG);
}

void tree_kill(struct tree *t, pid_t program)
{
	if (t->how == SCG_LAUNCH_TREE_KEPT)
		return;
	if (t->kill_fd >= 0)
		(void)!write(t->kill_fd, "1", 1);
	/* Bounded: each round kills every child there is, and a killed process
	 * forks no more; its children come to us for the next round. */
	for (int round = 0; round < 4096; round++) {
		pid_t kids[MAX_KIDS];
		size_t n = tree_children(t, kids, MAX_KIDS, program);
		if (n == 0)
			break;
		for (size_t i = 0; i < n; i++)
			kill(kids[i], SIGKILL);
		for (size_t i = 0; i < n; i++)
			while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
				;
	}
}

void tree_release(struct tree *t)
{
	/* Empty once every process of it is reaped (tree_kill()); should one
	 * be left, rmdir fails and the cgroup stays. */
	drop_cgroup(t);
	free(t->callers);
	t->callers = NULL;
	t->ncallers = 0;
	if (t->subreaper_was >= 0)
		prctl(PR_SET_CHILD_SUBREAPER, (unsigned long)t->subreaper_was, 0L, 0L, 0L);
	t->subreaper_was = -1;
}
