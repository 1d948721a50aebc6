#!/usr/bin/env python3
"""Writes the initramfs of a test VM (tests/vm/vm-run): the static init, the modules that
9p and the overlay need with their dependencies first, and the run directory's path.

    tests/vm/initramfs.py KERNEL_TREE INIT RUN_DIR OUT

KERNEL_TREE is a Debian kernel package unpacked with dpkg-deb -x (lib/modules/VERSION/...).
No depmod is needed: each module's dependencies are read from its own .modinfo section
("depends=a,b"), and modules Debian builds into the kernel (modules.builtin) are skipped.
Compressed modules (.ko.xz, .ko.zst is not read) are unpacked here, so the init loads plain
files on every kernel.  The archive is an uncompressed newc cpio, which every kernel reads.
"""
import lzma
import os
import re
import sys

WANTED = ["virtio_pci", "9pnet_virtio", "9p", "overlay"]
DEPENDS = re.compile(rb"(?:^|\0)depends=([^\0]*)\0")


def module_dir(tree):
    base = os.path.join(tree, "lib", "modules")
    versions = sorted(os.listdir(base))
    if len(versions) != 1:
        raise SystemExit(f"initramfs: expected one kernel under {base}, found {versions}")
    return os.path.join(base, versions[0])


def index_modules(mdir):
    """Module name (dashes as underscores) -> path of its .ko or .ko.xz."""
    found = {}
    for root, _, files in os.walk(os.path.join(mdir, "kernel")):
        for f in files:
            for ext in (".ko", ".ko.xz"):
                if f.endswith(ext):
                    found[f[: -len(ext)].replace("-", "_")] = os.path.join(root, f)
    return found


def builtin_names(mdir):
    names = set()
    try:
        with open(os.path.join(mdir, "modules.builtin")) as f:
            for line in f:
                names.add(os.path.basename(line.strip()).split(".ko")[0].replace("-", "_"))
    except FileNotFoundError:
        pass
    return names


def read_module(path):
    with open(path, "rb") as f:
        data = f.read()
    return lzma.decompress(data) if path.endswith(".xz") else data


def load_order(wanted, index, builtin):
    """Each wanted module after everything it depends on; built-in ones left out."""
    order, seen = [], set()

    def visit(name, chain):
        if name in seen or name in builtin:
            return
        if name in chain:
            raise SystemExit(f"initramfs: dependency loop: {' -> '.join(chain + [name])}")
        if name not in index:
            raise SystemExit(f"initramfs: module {name} is neither built in nor shipped")
        data = read_module(index[name])
        m = DEPENDS.search(data)
        for dep in (m.group(1).decode().split(",") if m and m.group(1) else []):
            visit(dep.replace("-", "_"), chain + [name])
        seen.add(name)
        order.append((name, data))

    for name in wanted:
        visit(name, [])
    return order


def cpio_entry(out, ino, name, mode, data=b""):
    name_b = name.encode() + b"\0"
    header = "070701" + "".join(
        f"{v:08x}" for v in (ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name_b), 0))
    out.write(header.encode() + name_b)
    out.write(b"\0" * (-(110 + len(name_b)) % 4))
    out.write(data)
    out.write(b"\0" * (-len(data) % 4))


def main(argv):
    if len(argv) != 5:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    tree, init, run, out_path = argv[1:]
    mdir = module_dir(tree)
    order = load_order(WANTED, index_modules(mdir), builtin_names(mdir))
    with open(init, "rb") as f:
        init_data = f.read()
    tmp = out_path + ".tmp"
    with open(tmp, "wb") as out:
        ino = 1
        for d in ("dev", "proc", "sys", "modules"):
            cpio_entry(out, ino, d, 0o40755)
            ino += 1
        cpio_entry(out, ino, "init", 0o100755, init_data)
        ino += 1
        cpio_entry(out, ino, "vm.conf", 0o100644, f"run={run}\n".encode())
        ino += 1
        for i, (name, data) in enumerate(order):
            cpio_entry(out, ino, f"modules/{i:02d}-{name}.ko", 0o100644, data)
            ino += 1
        cpio_entry(out, 0, "TRAILER!!!", 0)
    os.replace(tmp, out_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
