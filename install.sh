#!/bin/sh
# Installs the heimdall binary of a release: detects this machine's OS and
# architecture, downloads the matching archive and SHA256SUMS, refuses unless
# the checksum matches, and puts `heimdall` into ~/.local/bin (or PREFIX/bin).
#
#   curl -fsSL https://github.com/heimdall-dev/heimdall/releases/latest/download/install.sh | sh
#   sh install.sh [--version 0.1.0] [--prefix DIR] [--base-url URL] [--target TRIPLE]
#
# Environment: HEIMDALL_BASE_URL (where SHA256SUMS and the archives are; default
# the GitHub release of --version, or the latest), HEIMDALL_REPO (owner/name on
# GitHub), HEIMDALL_VERSION, HEIMDALL_PREFIX.
# Exit codes: 0 installed; 1 no release for this machine, download failed or
# checksum mismatch (nothing installed); 2 usage.
set -eu

repo=${HEIMDALL_REPO:-heimdall-dev/heimdall}
version=${HEIMDALL_VERSION:-}
# No default yet: HOME may be unset (a CI job, a service) when --prefix is given.
prefix=${HEIMDALL_PREFIX:-}
base_url=${HEIMDALL_BASE_URL:-}
target=

say() { printf '%s\n' "$*" >&2; }
die() {
  say "install.sh: $*"
  exit 1
}
usage() {
  say "install.sh: $*; usage: sh install.sh [--version X.Y.Z] [--prefix DIR] [--base-url URL] [--target TRIPLE]"
  exit 2
}

while [ $# -gt 0 ]; do
  case $1 in
  --version | --prefix | --base-url | --target)
    [ $# -ge 2 ] || usage "$1 needs a value"
    case $1 in
    --version) version=$2 ;;
    --prefix)
      # Empty, "$prefix/bin" would be /bin.
      [ -n "$2" ] || usage "--prefix needs a folder, not an empty value"
      prefix=$2
      ;;
    --base-url) base_url=$2 ;;
    --target) target=$2 ;;
    esac
    shift 2
    ;;
  -h | --help)
    # Not read from "$0": piped (curl … | sh -s -- --help) that is the shell, not this script.
    cat >&2 <<'EOF'
Installs the heimdall binary of a release: detects this machine's OS and
architecture, downloads the matching archive and SHA256SUMS, refuses unless
the checksum matches, and puts `heimdall` into ~/.local/bin (or PREFIX/bin).

  curl -fsSL https://github.com/heimdall-dev/heimdall/releases/latest/download/install.sh | sh
  sh install.sh [--version 0.1.0] [--prefix DIR] [--base-url URL] [--target TRIPLE]

Environment: HEIMDALL_BASE_URL (where SHA256SUMS and the archives are; default
the GitHub release of --version, or the latest), HEIMDALL_REPO (owner/name on
GitHub), HEIMDALL_VERSION, HEIMDALL_PREFIX.
Exit codes: 0 installed; 1 no release for this machine, download failed or
checksum mismatch (nothing installed); 2 usage.
EOF
    exit 0
    ;;
  *) usage "unknown option \"$1\"" ;;
  esac
done
version=${version#v}
if [ -z "$prefix" ]; then
  [ -n "${HOME:-}" ] || usage "HOME is not set, so there is no ~/.local to install into; pass --prefix DIR (or set HEIMDALL_PREFIX)"
  prefix=$HOME/.local
fi
# A relative prefix means the folder this runs in; the PATH line printed below must
# name it absolutely, or it finds heimdall from that folder only.
case $prefix in
/*) ;;
*) prefix=$(pwd)/$prefix ;;
esac

if [ -z "$target" ]; then
  os=$(uname -s)
  arch=$(uname -m)
  case $os in
  Linux) os_part=unknown-linux-gnu ;;
  Darwin) os_part=apple-darwin ;;
  MINGW* | MSYS* | CYGWIN* | Windows_NT)
    die "this script installs on Linux and macOS; on Windows download heimdall-<version>-x86_64-pc-windows-msvc.zip from the release, check it against SHA256SUMS, and put heimdall.exe on your PATH"
    ;;
  *) die "no Heimdall release for the OS \"$os\" (releases are for Linux and macOS, x86_64 and aarch64); build it from source with \`deno task compile\`" ;;
  esac
  case $arch in
  x86_64 | amd64) arch_part=x86_64 ;;
  aarch64 | arm64) arch_part=aarch64 ;;
  *) die "no Heimdall release for the architecture \"$arch\" on $os (releases are for x86_64 and aarch64); build it from source with \`deno task compile\`" ;;
  esac
  target=$arch_part-$os_part
fi

if [ -z "$base_url" ]; then
  if [ -n "$version" ]; then
    base_url=https://github.com/$repo/releases/download/v$version
  else
    base_url=https://github.com/$repo/releases/latest/download
  fi
fi
base_url=${base_url%/}

if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsSL --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -O "$2" "$1"; }
else
  die "neither curl nor wget is installed; install one (apt-get install -y curl) and rerun"
fi
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
  die "neither sha256sum nor shasum is installed, so the download cannot be verified; install coreutils (or perl's shasum) and rerun"
fi

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t heimdall)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

fetch "$base_url/SHA256SUMS" "$tmp/SHA256SUMS" ||
  die "could not download $base_url/SHA256SUMS; check the version (\"${version:-latest}\") and the base URL, or your connection"

# A line is "<sha256>  heimdall-<version>-<target>.tar.gz".
line=$(grep -E "^[0-9a-f]{64}  heimdall-[^ ]+-$target\\.tar\\.gz\$" "$tmp/SHA256SUMS" | head -n 1 || true)
if [ -z "$line" ]; then
  have=$(awk '{ printf "%s ", $2 }' "$tmp/SHA256SUMS")
  die "the release at $base_url has no archive for this machine ($target); it has: ${have:-nothing}. Build from source with \`deno task compile\`, or pass --target if detection was wrong"
fi
want=${line%% *}
name=${line##* }

fetch "$base_url/$name" "$tmp/$name" || die "could not download $base_url/$name"
got=$(sha256 "$tmp/$name")
if [ "$got" != "$want" ]; then
  die "checksum mismatch for $name: SHA256SUMS says $want, the download is $got; nothing was installed. Retry; if it persists the release or your connection is corrupting it: report it"
fi

mkdir -p "$tmp/x"
tar -xzf "$tmp/$name" -C "$tmp/x" || die "could not unpack $name"
[ -f "$tmp/x/heimdall" ] || die "$name holds no heimdall binary; report it"

bin=$prefix/bin
mkdir -p "$bin" || die "cannot create $bin; pass --prefix DIR with a folder you can write"
# Copy beside, then rename: a running heimdall keeps its old file, and no half-written one is seen.
new=$bin/.heimdall.new.$$
if ! { cp "$tmp/x/heimdall" "$new" && chmod 755 "$new" && mv -f "$new" "$bin/heimdall"; }; then
  rm -f "$new"
  die "cannot write $bin/heimdall; pass --prefix DIR with a folder you can write"
fi

say "Installed $bin/heimdall ($name, sha256 verified)"
if installed=$("$bin/heimdall" --version 2>&1); then
  say "$installed"
else
  say "warning: $bin/heimdall --version failed: $installed"
fi
# What `heimdall` runs in a new shell: this one, or another (an older install) found first.
found=$(command -v heimdall 2>/dev/null || true)
case $found in
/*)
  if [ "$found" = "$bin/heimdall" ] || [ "$found" -ef "$bin/heimdall" ]; then
    found=
  fi
  ;;
*) found= ;;
esac
case ":${PATH:-}:" in
*":$bin:"*)
  if [ -n "$found" ]; then
    other=$("$found" --version 2>&1 | head -n 1 || true)
    say ""
    say "warning: \`heimdall\` still runs $found (${other:-no version}), which comes before $bin on your PATH; remove it, or put $bin first in PATH"
  fi
  ;;
*)
  say ""
  say "$bin is not on your PATH. Add it, then open a new shell:"
  # The startup file the user's shell reads: zsh (macOS's default) never reads ~/.profile.
  case ${SHELL:-} in
  */fish) say "  fish_add_path $bin" ;;
  */zsh) say "  echo 'export PATH=\"$bin:\$PATH\"' >> ~/.zshrc" ;;
  */bash)
    # macOS's Terminal starts login shells, which read ~/.bash_profile, not ~/.bashrc.
    rc='~/.bashrc'
    [ "$(uname -s)" = Darwin ] && rc='~/.bash_profile'
    say "  echo 'export PATH=\"$bin:\$PATH\"' >> $rc"
    ;;
  *) say "  echo 'export PATH=\"$bin:\$PATH\"' >> ~/.profile" ;;
  esac
  ;;
esac
