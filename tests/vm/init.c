/* The first process of a test VM (tests/vm/vm-run): it loads the modules the initramfs
 * carries, mounts the host's root (9p, read-only) under a writable overlay, runs one command
 * as root there, writes its status to the run directory the host shares, and powers off.
 *
 * Built statically by vm-run, so the initramfs needs no shell, no libc and no module tools.
 * What the command prints goes to files in the run directory, not to a serial port: the
 * host reads them after QEMU exits, and files lose no bytes.
 *
 * The initramfs holds:
 *   /init              this program
 *   /modules/NN-name.ko  modules, loaded in name order (dependencies first)
 *   /vm.conf           key=value lines: run=<host path of the run directory>
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define NEWROOT "/newroot"

static void say(const char *fmt, ...)
{
	va_list ap;
	char line[512];
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	/* the console: the serial log the host keeps, and shows for a failed boot */
	int fd = open("/dev/console", O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd >= 0) {
		(void)!write(fd, line, (size_t)n);
		close(fd);
	}
}

/* Ends the VM: QEMU runs with -no-reboot, so a restart request makes it exit. */
static void power_off(void)
{
	sync();
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

static void mount_or_say(const char *src, const char *dst, const char *type, unsigned long flags,
			 const char *opts)
{
	mkdir(dst, 0755);
	if (mount(src, dst, type, flags, opts) != 0)
		say("vm-init: mount %s on %s (%s): %s", src, dst, type, strerror(errno));
}

static int name_order(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void load_modules(void)
{
	struct dirent **names;
	int n = scandir("/modules", &names, NULL, name_order);
	for (int i = 0; i < n; i++) {
		char path[300];
		snprintf(path, sizeof(path), "/modules/%s", names[i]->d_name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && names[i]->d_name[0] != '.') {
			if (syscall(SYS_finit_module, fd, "", 0) != 0 && errno != EEXIST)
				say("vm-init: loading %s: %s", path, strerror(errno));
		}
		if (fd >= 0)
			close(fd);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

/* The run directory's host path, which is also where the command finds it. */
static void read_conf(char *run, size_t size)
{
	FILE *f = fopen("/vm.conf", "r");
	char line[512];
	run[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "run=", 4) == 0)
			snprintf(run, size, "%s", line + 4);
	}
	if (f)
		fclose(f);
}

/* Tests serve and connect on 127.0.0.1: the loopback interface comes up as on any machine. */
static void loopback_up(void)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) != 0)
		say("vm-init: loopback: %s", strerror(errno));
	else {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		if (ioctl(s, SIOCSIFFLAGS, &ifr) != 0)
			say("vm-init: loopback up: %s", strerror(errno));
	}
	if (s >= 0)
		close(s);
}

/* The host's root, read-only over 9p, under a tmpfs overlay: the command may write anywhere,
 * and nothing it writes reaches the host but the run directory. */
static int mount_root(void)
{
	mount_or_say("tmpfs", "/rw", "tmpfs", 0, "mode=0755");
	mkdir("/rw/upper", 0755);
	mkdir("/rw/work", 0755);
	mkdir("/lower", 0755);
	if (mount("hostroot", "/lower", "9p", MS_RDONLY,
		  "trans=virtio,version=9p2000.L,msize=512000,cache=loose") != 0) {
		say("vm-init: mounting the host's root: %s", strerror(errno));
		return -1;
	}
	mkdir(NEWROOT, 0755);
	if (mount("overlay", NEWROOT, "overlay", 0,
		  "lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work") != 0) {
		say("vm-init: overlay: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void mount_system(const char *run)
{
	mount_or_say("proc", NEWROOT "/proc", "proc", 0, NULL);
	mount_or_say("sysfs", NEWROOT "/sys", "sysfs", 0, NULL);
	mount_or_say("cgroup2", NEWROOT "/sys/fs/cgroup", "cgroup2", 0, NULL);
	mount_or_say("securityfs", NEWROOT "/sys/kernel/security", "securityfs", 0, NULL);
	mount_or_say("devtmpfs", NEWROOT "/dev", "devtmpfs", 0, NULL);
	mount_or_say("devpts", NEWROOT "/dev/pts", "devpts", 0, "ptmxmode=0666,newinstance");
	/* what udev would add: bash's process substitution opens /dev/fd/N */
	static const char *const links[][2] = { { "/proc/self/fd", "fd" }, { "/proc/self/fd/0", "stdin" },
						 { "/proc/self/fd/1", "stdout" }, { "/proc/self/fd/2", "stderr" },
						 { "pts/ptmx", "ptmx" } };
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		char at[64];
		snprintf(at, sizeof(at), NEWROOT "/dev/%s", links[i][1]);
		unlink(at);
		if (symlink(links[i][0], at) != 0)
			say("vm-init: /dev/%s: %s", links[i][1], strerror(errno));
	}
	mount_or_say("tmpfs", NEWROOT "/dev/shm", "tmpfs", 0, "mode=1777");
	mount_or_say("tmpfs", NEWROOT "/tmp", "tmpfs", 0, "mode=1777");
	mount_or_say("tmpfs", NEWROOT "/run", "tmpfs", 0, "mode=0755");
	char dst[600];
	snprintf(dst, sizeof(dst), NEWROOT "%s", run);
	mount_or_say("vmrun", dst, "9p", 0, "trans=virtio,version=9p2000.L,msize=512000");
}

/* The overlay becomes the root, as switch_root does: the initramfs stays below, unreachable.
 * (pivot_root cannot move the initial rootfs.) */
static int switch_root(void)
{
	if (chdir(NEWROOT) != 0 || mount(".", "/", NULL, MS_MOVE, NULL) != 0 || chroot(".") != 0 ||
	    chdir("/") != 0) {
		say("vm-init: switching to the new root: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Runs RUN/command with its output in RUN/stdout and RUN/stderr; returns its wait status. */
static int run_command(const char *run)
{
	pid_t pid = fork();
	if (pid == 0) {
		char path[600];
		snprintf(path, sizeof(path), "%s/stdout", run);
		int out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		snprintf(path, sizeof(path), "%s/stderr", run);
		int err = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int in = open("/dev/null", O_RDONLY);
		if (out < 0 || err < 0 || in < 0)
			_exit(125);
		dup2(in, 0);
		dup2(out, 1);
		dup2(err, 2);
		setsid();
		snprintf(path, sizeof(path), "%s/command", run);
		char *argv[] = {"/bin/sh", path, NULL};
		char *envp[] = {"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
				"HOME=/root", "TERM=dumb", "LANG=C.UTF-8", NULL};
		execve(argv[0], argv, envp);
		_exit(127);
	}
	int status = 0;
	/* PID 1 reaps every orphan; the command's own status is the one to keep */
	for (;;) {
		pid_t got = wait(&status);
		if (got == pid)
			break;
		if (got < 0 && errno != EINTR)
			return 125 << 8;
	}
	return status;
}

static void write_status(const char *run, int status)
{
	char path[600];
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	snprintf(path, sizeof(path), "%s/status", run);
	FILE *f = fopen(path, "w");
	if (!f) {
		say("vm-init: writing %s: %s", path, strerror(errno));
		return;
	}
	fprintf(f, "%d\n", code);
	fclose(f);
}

int main(void)
{
	char run[512];
	mount_or_say("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount_or_say("proc", "/proc", "proc", 0, NULL);
	mount_or_say("sysfs", "/sys", "sysfs", 0, NULL);
	load_modules();
	read_conf(run, sizeof(run));
	if (run[0] != '/' || mount_root() != 0)
		power_off();
	mount_system(run);
	if (switch_root() != 0)
		power_off();
	loopback_up();
	write_status(run, run_command(run));
	/* whatever the command left running ends with the VM */
	kill(-1, SIGKILL);
	power_off();
	return 0;
}
