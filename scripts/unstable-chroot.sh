#!/usr/bin/env bash
# Builds, or reuses, a Debian trixie chroot carrying unstable's packages: the real programs that
# bookworm lacks (Godot 4, ggml's Vulkan backend and its test-backend-ops), with unstable's Mesa
# (lavapipe) and the newest Vulkan-ValidationLayers to run beside the layer.
#
# Usage: scripts/unstable-chroot.sh [ensure|rebuild|status|remove|enter COMMAND...]
#   ensure   (default) reuse the chroot when its stamp matches this recipe and every package in the
#            stamp is still installed at the stamped version; build it otherwise
#   rebuild  build it anew (unstable moves: this takes its newest packages)
#   status   print the stamp and exit 0 when the chroot is complete and current, 1 otherwise
#   remove   delete it
#   enter    run COMMAND inside it (as root, the environment as given), with /proc, /sys, /dev and
#            a private /dev/shm and /tmp mounted; its exit status is COMMAND's. The chroot must be
#            current. The folder /preflight-runs in it is where callers put what a run needs.
# Environment: PREFLIGHT_UNSTABLE_CHROOT (default /var/cache/preflight/unstable-chroot): where it
# lives, outside any clone so that CI runs reuse it; PREFLIGHT_DEBIAN_MIRROR (default: the host's
# own Debian source). Needs root. Every mount (proc, sys, dev) is made in a private mount and PID
# namespace (unshare) that ends with the command: a failure or a kill never leaves a mount or a
# process (an X server, a hung program) behind on the host.
set -euo pipefail

chroot_dir=${PREFLIGHT_UNSTABLE_CHROOT:-/var/cache/preflight/unstable-chroot}
stamp_name=.preflight-unstable-stamp

# What goes in: Godot 4, ggml's tests and Vulkan backend, lavapipe, VVL, an X server for Godot, the
# layer's one run-time library not in a minimal system (libcjson1), vulkaninfo, spirv-dis for
# shader dumps; and unstable's versions of the bookworm acceptance's programs (vkcube, zink's
# OpenGL programs, piglit, glmark2, vkd3d's demos, mpv, GStreamer's and ffmpeg's Vulkan filters), so
# that VVL 1.4.363 (built for glibc 2.38) runs beside the layer on the same binaries; GTK 4's demos
# and rendernode tool (its Vulkan renderer), and Qt 6's qml runtime with the Qt Quick modules a
# scene with layers and effects needs (Qt's Vulkan RHI).
packages=(
    godot llama.cpp-tests libggml0-backend-vulkan mesa-vulkan-drivers vulkan-validationlayers
    xvfb xauth libcjson1 vulkan-tools spirv-tools
    libgl1-mesa-dri libglx-mesa0 libegl-mesa0 mesa-utils-bin glmark2-x11 piglit vkd3d-demos mpv ffmpeg
    gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-bad
    gtk-4-examples libgtk-4-bin fonts-dejavu-core
    qml-qt6 qt6-qpa-plugins qml6-module-qtquick qml6-module-qtquick-window qml6-module-qtquick-effects
    qml6-module-qtquick-layouts qml6-module-qtqml-workerscript
)
# unstable's GStreamer (1.28.8-1) is built without its Vulkan plugin ("d/rules: disable vulkan,
# dependency sdl3 not in debian") and trixie's plugins-bad cannot be installed beside unstable's
# libraries, so trixie's Vulkan plugin and its library alone are unpacked here (GST_PLUGIN_PATH and
# LD_LIBRARY_PATH name them; unstable's GStreamer core loads them)
gst_vulkan=/opt/gst-vulkan-trixie
gst_vulkan_debs=(gstreamer1.0-plugins-bad/trixie libgstreamer-plugins-bad1.0-0/trixie)

die() {
    echo "unstable-chroot: $*" >&2
    exit 1
}

host_mirror() {
    # The first Debian archive the host's apt uses (not its security archive)
    local uri
    uri=$(grep -hoE 'https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list \
        2>/dev/null | head -n 1 | tr -d ' ' || true)
    echo "${uri%/}"
}
mirror=${PREFLIGHT_DEBIAN_MIRROR:-$(host_mirror)}
mirror=${mirror:-http://deb.debian.org/debian}

# The recipe: a change to it (packages, mirror, suites) makes the chroot stale
recipe_version=1
recipe=$(printf '%s\n' "$recipe_version" "$mirror" trixie unstable "${packages[@]}" "${gst_vulkan_debs[@]}" |
    sha256sum | cut -c1-16)

mounted_under() {
    # Any mount point at or below $1 in this mount namespace
    awk -v d="$1" '$2 == d || index($2, d "/") == 1 { found = 1 } END { exit !found }' /proc/self/mounts
}

safe_remove() {
    local dir=$1
    [ -e "$dir" ] || return 0
    if mounted_under "$dir"; then
        die "something is mounted under $dir; unmount it first (refusing to delete through a mount)"
    fi
    rm -rf --one-file-system "$dir"
}

# Runs "$@" chrooted in $1 with /proc, /sys, /dev, and a /dev/shm and /tmp of its own (X servers'
# sockets and locks of concurrent runs never meet), mounted in private namespaces; when it ends, the
# kernel unmounts them and kills whatever it left running
in_chroot() {
    local root=$1
    shift
    unshare --mount --pid --fork --kill-child --propagation private -- /bin/sh -eu -c '
        root=$1; shift
        mount -t proc proc "$root/proc"
        mount --rbind /sys "$root/sys"
        mount --bind /dev "$root/dev"
        mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
        mount -t tmpfs -o mode=1777 tmp "$root/tmp"
        exec chroot "$root" "$@"
    ' in_chroot "$root" "$@"
}

stamp_ok() {
    local dir=$1 stamp=$1/$stamp_name
    [ -f "$stamp" ] || return 1
    [ "$(sed -n 's/^recipe //p' "$stamp")" = "$recipe" ] || return 1
    # Every stamped package still installed at its stamped version (a half-finished or changed
    # chroot is rebuilt, not trusted)
    local expected actual
    expected=$(sed -n 's/^package //p' "$stamp")
    [ -n "$expected" ] || return 1
    # shellcheck disable=SC2046
    actual=$(chroot "$dir" dpkg-query -W -f='${Package} ${Version}\n' $(echo "$expected" | cut -d' ' -f1) \
        2>/dev/null) || return 1
    [ "$expected" = "$actual" ] && [ -f "$dir$gst_vulkan/plugins/libgstvulkan.so" ]
}

build() {
    local partial=$chroot_dir.partial start=$SECONDS
    command -v debootstrap >/dev/null || die "debootstrap is missing: run scripts/setup.sh --tests"
    safe_remove "$partial"
    mkdir -p "$(dirname "$chroot_dir")"
    echo "unstable-chroot: building $chroot_dir from $mirror (trixie base, unstable packages)"
    # debootstrap mounts proc and sys in the target itself: keep those mounts in a namespace too
    unshare --mount --propagation private -- \
        debootstrap --variant=minbase trixie "$partial" "$mirror" >"$partial.log" 2>&1 ||
        die "debootstrap failed; see $partial.log"

    rm -f "$partial/etc/apt/sources.list"
    cat >"$partial/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $mirror
Suites: trixie unstable
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
    # unstable's Release on a mirror snapshot may be past its Valid-Until
    cat >"$partial/etc/apt/apt.conf.d/90preflight" <<'APT'
Acquire::Check-Valid-Until "false";
APT::Install-Recommends "false";
APT::Get::Assume-Yes "true";
Dpkg::Use-Pty "false";
APT
    # No daemon of any package starts inside the chroot
    printf '#!/bin/sh\nexit 101\n' >"$partial/usr/sbin/policy-rc.d"
    chmod 755 "$partial/usr/sbin/policy-rc.d"

    in_chroot "$partial" /usr/bin/env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 /bin/sh -euc '
        apt-get update -q
        apt-get install -q -t unstable "$@"
        apt-get clean
    ' install "${packages[@]}" >>"$partial.log" 2>&1 || die "installing the packages failed; see $partial.log"
    in_chroot "$partial" /bin/sh -euc '
        target=$1; shift
        cd /tmp && apt-get download -q "$@"
        for deb in *.deb; do dpkg-deb -x "$deb" unpacked; done
        mkdir -p "$target/plugins" "$target/lib"
        cp unpacked/usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgstvulkan.so "$target/plugins/"
        cp -a unpacked/usr/lib/x86_64-linux-gnu/libgstvulkan-1.0.so.0* "$target/lib/"
        dpkg-deb -f gstreamer1.0-plugins-bad_*.deb Version >"$target/version"
    ' gst_vulkan "$gst_vulkan" "${gst_vulkan_debs[@]}" >>"$partial.log" 2>&1 ||
        die "unpacking trixie's GStreamer Vulkan plugin failed; see $partial.log"

    {
        echo "recipe $recipe"
        echo "mirror $mirror"
        echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $((SECONDS - start)) s"
        chroot "$partial" dpkg-query -W -f='package ${Package} ${Version}\n' "${packages[@]}" libvulkan1
        echo "unpacked gstreamer-vulkan-plugin $(cat "$partial$gst_vulkan/version") (trixie)"
    } >"$partial/$stamp_name"
    safe_remove "$chroot_dir"
    mv "$partial" "$chroot_dir"
    mv "$partial.log" "$chroot_dir.log"
    echo "unstable-chroot: built in $((SECONDS - start)) s (log: $chroot_dir.log)"
}

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mounts)"
command=${1:-ensure}
# One builder at a time; runs of scripts/in-unstable-chroot.sh hold the lock shared
mkdir -p "$(dirname "$chroot_dir")"
exec 9>"$chroot_dir.lock"
case "$command" in
    ensure)
        flock 9
        if stamp_ok "$chroot_dir"; then
            echo "unstable-chroot: reusing $chroot_dir ($(sed -n 's/^built //p' "$chroot_dir/$stamp_name"))"
        else
            build
        fi
        ;;
    rebuild) flock 9 && build ;;
    status)
        flock -s 9
        [ -f "$chroot_dir/$stamp_name" ] && cat "$chroot_dir/$stamp_name"
        stamp_ok "$chroot_dir" || { echo "unstable-chroot: $chroot_dir is absent, incomplete or stale" >&2; exit 1; }
        ;;
    remove) flock 9 && safe_remove "$chroot_dir" && safe_remove "$chroot_dir.partial" ;;
    enter)
        shift
        [ $# -gt 0 ] || { echo "usage: $0 enter COMMAND [ARG...]" >&2; exit 2; }
        flock -s 9
        stamp_ok "$chroot_dir" || die "$chroot_dir is absent, incomplete or stale: run $0 ensure"
        in_chroot "$chroot_dir" "$@"
        ;;
    *) echo "usage: $0 [ensure|rebuild|status|remove|enter COMMAND...]" >&2; exit 2 ;;
esac
