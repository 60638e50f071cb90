#!/usr/bin/env bash
# Encryption at rest against a real SQLCipher 4 (issue 17): builds Strata with its SQLCipher trait
# (Tests/SQLCipherPackage) and runs its tests.
#
# The library: a system libsqlcipher of version 4.5 or later when pkg-config finds one (Debian 13,
# Homebrew). Debian 12's libsqlcipher-dev is SQLCipher 3.4.1 on SQLite 3.15, too old for Strata
# (docs/Encryption.md), so on Debian 12 the SQLCipher 4 library comes from PyPI's
# sqlcipher3-binary wheel: its extension module is a complete SQLCipher (sqlite3_* exported,
# OpenSSL's libcrypto beside it) that also references the CPython API, so the test executable
# links the Python library as well. Only this test does that; users link their system SQLCipher.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/.build-sqlcipher
linker=()
if pkg-config --exists 'sqlcipher >= 4.5' 2>/dev/null; then
    echo "SQLCipher $(pkg-config --modversion sqlcipher) from pkg-config"
    for flag in $(pkg-config --libs-only-L sqlcipher); do linker+=(-Xlinker "$flag"); done
else
    lib=$work/lib
    if [ ! -e "$lib/libsqlcipher.so" ]; then
        rm -rf "$work/wheel" "$lib"
        mkdir -p "$work/wheel" "$lib"
        python3 -m pip download --quiet --no-deps --only-binary :all: --dest "$work/wheel" "sqlcipher3-binary==0.6.0"
        python3 -m zipfile -e "$work"/wheel/sqlcipher3_binary-*.whl "$work/wheel/unpacked"
        cp "$work"/wheel/unpacked/sqlcipher3/_sqlite3*.so "$lib/libsqlcipher.so"
        cp "$work"/wheel/unpacked/sqlcipher3_binary.libs/* "$lib/"
    fi
    libpython=$(python3 -c 'import sysconfig, os; print(os.path.join(sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("LDLIBRARY")))')
    [ -e "$libpython" ] || { echo "sqlcipher-test: no shared Python library at $libpython"; exit 1; }
    echo "SQLCipher from PyPI's sqlcipher3-binary 0.6.0 ($lib), with $libpython"
    linker+=(-Xlinker "-L$lib" -Xlinker -rpath -Xlinker "$lib" -Xlinker "$libpython")
    export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
swift test --package-path Tests/SQLCipherPackage --scratch-path "$work/build" "${linker[@]}" "$@"
