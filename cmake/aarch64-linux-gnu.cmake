# Cross-compiles preflight for arm64 (aarch64) on an x86-64 Debian 12 with Debian's cross toolchain:
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
# scripts/setup-arm64.sh installs what it needs: crossbuild-essential-arm64, the arm64 -dev packages
# through multiarch (their libraries in /usr/lib/aarch64-linux-gnu), and the arm64 files of the two
# -dev packages that cannot be installed beside their amd64 twins, unpacked under
# PREFLIGHT_ARM64_DEV (default /opt/preflight/aarch64-linux-gnu).
# Host tools stay native: Python (code from vk.xml), glslc and spirv-val (the SPIR-V is the same
# bytes for every CPU); only the compiled programs and libraries are aarch64.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Debian's multiarch library directory (/usr/lib/aarch64-linux-gnu), which GNUInstallDirs picks by
# itself only in native builds: the layer's library and its manifest's library_path go there.
set(CMAKE_INSTALL_LIBDIR lib/aarch64-linux-gnu CACHE PATH "object code libraries")

if(DEFINED ENV{PREFLIGHT_ARM64_DEV})
  set(PREFLIGHT_ARM64_DEV $ENV{PREFLIGHT_ARM64_DEV})
else()
  set(PREFLIGHT_ARM64_DEV /opt/preflight/aarch64-linux-gnu)
endif()
if(NOT EXISTS ${PREFLIGHT_ARM64_DEV}/usr/lib/aarch64-linux-gnu/pkgconfig/SPIRV-Tools.pc)
  message(FATAL_ERROR "arm64 SPIRV-Tools not found under ${PREFLIGHT_ARM64_DEV}: run scripts/setup-arm64.sh")
endif()

# Multiarch: the arm64 files live beside the host's in /, so / is the root searched, for the
# target's libraries and headers only; programs found are the host's.
set(CMAKE_FIND_ROOT_PATH / ${PREFLIGHT_ARM64_DEV})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config answers for arm64 only: the multiarch directory, then the unpacked packages.
set(ENV{PKG_CONFIG_LIBDIR}
    "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig:${PREFLIGHT_ARM64_DEV}/usr/lib/aarch64-linux-gnu/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
