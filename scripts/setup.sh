#!/usr/bin/env bash
# Installs everything preflight needs on Debian 12 (bookworm), as root, idempotently:
# build tools and libraries from bookworm, and lavapipe (mesa-vulkan-drivers 25.x) from
# bookworm-backports, the software Vulkan driver that CI tests against.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
    echo "scripts/setup.sh installs packages: run it as root (or with sudo)" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
backports=/etc/apt/sources.list.d/preflight-bookworm-backports.sources
if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    cat >"$backports" <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
fi

packages=(
    build-essential cmake ninja-build pkg-config python3 python3-jsonschema
    libvulkan-dev libvulkan-volk-dev vulkan-tools vulkan-validationlayers
    glslc spirv-tools spirv-headers
    libcjson-dev libcmocka-dev libcurl4-openssl-dev
    xvfb xauth
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
mesa_version=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || true)
need_mesa=1
case "$mesa_version" in 2[5-9].*|[3-9][0-9].*) need_mesa=0 ;; esac

if [ ${#missing[@]} -gt 0 ] || [ "$need_mesa" -eq 1 ]; then
    apt-get update -q
    [ ${#missing[@]} -eq 0 ] || apt-get install -y -q --no-install-recommends "${missing[@]}"
    [ "$need_mesa" -eq 0 ] || apt-get install -y -q --no-install-recommends -t bookworm-backports mesa-vulkan-drivers
fi
echo "setup: packages present; lavapipe $(dpkg-query -W -f='${Version}' mesa-vulkan-drivers)"
