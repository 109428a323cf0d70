# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by fetch-kernel.sh and fetch-sysroot.sh (bash): a private apt
# configuration under the cache that never touches the system's apt
# state. apt_private CACHE ARCH [--refresh] sets APT (the directory:
# CACHE/apt for amd64, CACHE/apt-ARCH for others) and APTOPTS (the
# apt-get/apt-cache options), writes the deb822 sources for ARCH and
# runs apt-get update when the lists are older than a day (or
# --refresh). It calls skip (the caller's: exit 77 with a reason) when
# apt cannot be used.

# The mirrors are the system's own (its apt sources, deb822 or one-line),
# never a host name written here: the first URI of a source whose suites
# are not "-security", and the first of one whose suites are; the
# environment may name others.
system_uri() { # main|security
	{
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -r "$f" ] || continue
			awk -v want="$1" '
				function out() { if (uri != "" && (want == "security") == sec) { print uri; exit } }
				/^URIs:/ { uri = $2 } /^Suites:/ { sec = ($0 ~ /-security/) }
				/^[ \t]*$/ { out(); uri = ""; sec = 0 }
				END { out() }' "$f"
		done
		[ -r /etc/apt/sources.list ] && awk -v want="$1" '
			$1 == "deb" { for (i = 2; i <= NF && $i !~ /:\/\//; i++) ; sec = ($(i + 1) ~ /-security/)
				if (i <= NF && (want == "security") == sec) print $i }' /etc/apt/sources.list
	} 2>/dev/null | head -n 1 || true   # pipefail: no sources.list, or head closing early
}

apt_private() { # CACHE ARCH [--refresh]
	local cache=$1 arch=$2 refresh=${3:-} keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	local mirror secmirror stamp

	command -v apt-get >/dev/null || skip "apt-get not found"
	command -v dpkg-deb >/dev/null || skip "dpkg-deb not found"
	[ -r "$keyring" ] || skip "$keyring missing (install debian-archive-keyring)"
	APT=$cache/apt
	[ "$arch" = amd64 ] || APT=$cache/apt-$arch
	mkdir -p "$APT/sources" "$APT/lists/partial" "$APT/cache/archives/partial"
	mirror=${MMSCOPE_DEBIAN_MIRROR:-$(system_uri main)}
	secmirror=${MMSCOPE_DEBIAN_SECURITY_MIRROR:-$(system_uri security)}
	[ -n "$mirror" ] || skip "no Debian mirror in this system's apt sources (set MMSCOPE_DEBIAN_MIRROR)"
	cat > "$APT/sources/mmscope.sources" <<SRC
Types: deb
URIs: $mirror
Suites: bullseye bullseye-updates bookworm bookworm-updates bookworm-backports trixie-backports sid
Components: main
Architectures: $arch
Signed-By: $keyring
SRC
	[ -n "$secmirror" ] && cat >> "$APT/sources/mmscope.sources" <<SRC

Types: deb
URIs: $secmirror
Suites: bullseye-security bookworm-security
Components: main
Architectures: $arch
Signed-By: $keyring
SRC
	APTOPTS=(
		-o Dir::Etc::SourceList=/dev/null
		-o Dir::Etc::SourceParts="$APT/sources"
		-o Dir::Etc::Preferences=/dev/null
		-o Dir::Etc::PreferencesParts="$APT/sources"
		-o Dir::State::Lists="$APT/lists"
		-o Dir::Cache="$APT/cache"
		-o Dir::State::Status=/dev/null
		-o Debug::NoLocking=1
		-o APT::Architecture="$arch"
		-o APT::Architectures::="$arch"
		-o Acquire::Languages=none
		-o Acquire::IndexTargets::deb::Contents-deb::DefaultEnabled=false
		-o Acquire::Retries=2
		-o Acquire::http::Timeout=30
	)
	stamp=$APT/lists/.mmscope-updated
	if [ "$refresh" = --refresh ] || [ ! -e "$stamp" ] || [ -n "$(find "$stamp" -mmin +1440 2>/dev/null)" ]; then
		if ! apt-get "${APTOPTS[@]}" -qq update >"$APT/update.log" 2>&1; then
			# a partial failure (one suite unreachable) still leaves usable lists
			grep -q . <(find "$APT/lists" -maxdepth 1 -name '*_Packages*' -print -quit) ||
				skip "apt-get update failed: $(grep -E '^(E|W):' "$APT/update.log" | head -1)"
		fi
		touch "$stamp"
	fi
}
