#!/usr/bin/env bash
# Installs what the arm64 cross build and its tests under emulation need on an x86-64 Debian 12,
# as root, idempotently (scripts/setup.sh calls it):
#  - Debian's cross toolchain (crossbuild-essential-arm64) and the arm64 -dev packages through
#    multiarch (dpkg --add-architecture arm64);
#  - the three -dev packages that cannot sit beside their amd64 twins (spirv-tools, libpq-dev and
#    glslang-dev are not Multi-Arch: same): their arm64 files unpacked, not installed, under $PREFLIGHT_ARM64_DEV
#    (default /opt/preflight/aarch64-linux-gnu), where cmake/aarch64-linux-gnu.cmake finds them;
#  - qemu-user-static, debootstrap and the binfmt_misc registration of aarch64 binaries, for
#    scripts/test-arm64.sh.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
    echo "scripts/setup-arm64.sh installs packages: run it as root (or with sudo)" >&2
    exit 1
fi
if [ "$(dpkg --print-architecture)" != amd64 ]; then
    echo "setup-arm64: nothing to do on $(dpkg --print-architecture) (the cross build and its emulation are for x86-64 hosts)"
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
dev_dir=${PREFLIGHT_ARM64_DEV:-/opt/preflight/aarch64-linux-gnu}
apt_get() { apt-get -o DPkg::Lock::Timeout=600 "$@"; }

host_packages=(crossbuild-essential-arm64 qemu-user-static debootstrap)
arm64_packages=(libvulkan-dev libcjson-dev libcmocka-dev libcurl4-openssl-dev libgnutls28-dev libpng-dev
                libmicrohttpd-dev libsqlite3-dev zlib1g-dev libpq5
                libssl-dev) # libssl-dev: libpq.pc requires it
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

updated=0
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    dpkg --add-architecture arm64
    apt_get update -q
    updated=1
fi
missing=()
for p in "${host_packages[@]}"; do installed "$p" || missing+=("$p"); done
for p in "${arm64_packages[@]}"; do installed "$p:arm64" || missing+=("$p:arm64"); done
if [ ${#missing[@]} -gt 0 ]; then
    [ "$updated" = 1 ] || apt_get update -q
    # --no-remove: an arm64 package that displaced an amd64 one would break the native build
    apt_get install -y -q --no-install-recommends --no-remove "${missing[@]}"
fi

# Not installable beside their amd64 twins (apt would remove those, and with them the host's
# spirv-val and glslc's libraries): spirv-tools:arm64 (the static SPIRV-Tools libraries the layer
# links), libpq-dev:arm64 (libpq's headers, link name and pkg-config file) and glslang-dev:arm64 (the
# static glslang the VkFFT test program links). Unpacked at the versions of their amd64 twins; their
# pkg-config files are rewritten to point into the unpacked tree.
unpack=("spirv-tools:arm64=$(dpkg-query -W -f='${Version}' spirv-tools)"
        "libpq-dev:arm64=$(dpkg-query -W -f='${Version}' libpq5:arm64)"
        "glslang-dev:arm64=$(dpkg-query -W -f='${Version}' glslang-dev)")
if [ "$(cat "$dev_dir/.versions" 2>/dev/null)" != "${unpack[*]}" ]; then
    download=$(mktemp -d)
    chown _apt "$download" # apt downloads as its _apt user
    (cd "$download" && apt_get download -q "${unpack[@]}")
    rm -rf "$dev_dir"
    mkdir -p "$dev_dir"
    for deb in "$download"/*.deb; do dpkg-deb -x "$deb" "$dev_dir"; done
    rm -rf "$download"
    sed -i "s|^prefix=/usr\$|prefix=$dev_dir/usr|" "$dev_dir"/usr/lib/aarch64-linux-gnu/pkgconfig/*.pc
    # libpq-dev's link name points at libpq5's library, installed through multiarch
    ln -sf /usr/lib/aarch64-linux-gnu/libpq.so.5 "$dev_dir/usr/lib/aarch64-linux-gnu/libpq.so"
    echo "${unpack[*]}" >"$dev_dir/.versions"
fi

# aarch64 binaries run through qemu: binfmt_misc mounted, qemu-aarch64 registered from the file
# qemu-user-static ships (its F flag opens the interpreter at registration, so it works in chroots).
binfmt=/proc/sys/fs/binfmt_misc
[ -e "$binfmt/register" ] || mount -t binfmt_misc binfmt_misc "$binfmt"
if [ ! -e "$binfmt/qemu-aarch64" ]; then
    grep -v '^#' /usr/lib/binfmt.d/qemu-aarch64.conf >"$binfmt/register"
fi
grep -qx enabled "$binfmt/qemu-aarch64" || { echo "setup-arm64: qemu-aarch64 is not enabled in binfmt_misc" >&2; exit 1; }
echo "setup-arm64: cross toolchain $(aarch64-linux-gnu-gcc -dumpversion), arm64 -dev packages, qemu-aarch64 registered"
