#!/usr/bin/env bash
# Makes a HybridTasks source release, hybridtasks-<version>.tar.gz, from a git
# revision (default: the tag v<version>), and prints its sha256 and the line
# the Spack recipe needs for it.
#   scripts/release.sh <version> [--rev <revision>] [-o <dir>] [--recipe]
#     --rev     the revision to release (default: v<version>)
#     -o        where to write (default: build/release in the checkout); the
#               tarball is also laid out as a Spack source mirror in <dir>/mirror
#     --recipe  write the version("<version>", sha256=...) line into the recipe
#               (spack/spack_repo/hybridtasks/packages/hybridtasks/package.py, or
#               the file HT_RECIPE names)
#
# The tarball is reproducible: the same tree gives the same bytes.  It holds
# the revision's tracked files under hybridtasks-<version>/, less the Spack
# files (spack/, spack.yaml: Spack takes the recipe from a package
# repository, not from the tarball), so the commit that records the
# checksum in the recipe may be the tagged commit itself.  Entries are sorted
# by name, owned by 0:0, modes 644 or 755, dated by the last commit that
# changed a released file, and gzip stores no name or time.  By hand, with GNU tar and gzip:
#   git archive --prefix=hybridtasks-<v>/ <rev> -- . ':!spack' ':!spack.yaml' | tar -x -C <tmp>
#   tar -C <tmp> --sort=name --mtime=@<time> --owner=0 --group=0 --numeric-owner \
#     --mode=u=rwX,go=rX --format=gnu -cf - hybridtasks-<v> | gzip -n -9 > hybridtasks-<v>.tar.gz
set -euo pipefail
die() { echo "release.sh: $*" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
recipe=${HT_RECIPE:-$root/spack/spack_repo/hybridtasks/packages/hybridtasks/package.py}
version="" rev="" out="" write_recipe=0
while (($#)); do
  case $1 in
    --rev) (($# >= 2)) || die "--rev needs a revision"; rev=$2; shift 2 ;;
    -o) (($# >= 2)) || die "-o needs a folder"; out=$2; shift 2 ;;
    --recipe) write_recipe=1; shift ;;
    -h | --help) sed -n '2,/^#$/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option '$1'; accepted: --rev <revision>, -o <dir>, --recipe" ;;
    *) [[ -z $version ]] || die "one version only (got '$version' and '$1')"; version=$1; shift ;;
  esac
done
[[ -n $version ]] || die "usage: release.sh <version> [--rev <revision>] [-o <dir>] [--recipe]"
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "version '$version': accepted is <major>.<minor>.<patch>, e.g. 0.9.0"
rev=${rev:-v$version}
git -C "$root" rev-parse --git-dir >/dev/null 2>&1 || die "$root is not a git checkout"
commit=$(git -C "$root" rev-parse --verify -q "$rev^{commit}") ||
  die "revision '$rev' not found (tag the release first: git tag -a v$version)"
# The version the build reports (project(... VERSION ...)) must be the one released.
built=$(git -C "$root" show "$commit:CMakeLists.txt" | sed -n 's/^project(HybridTasks VERSION \([0-9.]*\).*/\1/p')
[[ $built == "$version" ]] || die "$rev's CMakeLists.txt says version '${built:-none}', not $version"

name=hybridtasks-$version
out=${out:-$root/build/release}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
exclude=(. ':(exclude)spack' ':(exclude)spack.yaml')
mtime=$(git -C "$root" log -1 --format=%ct "$commit" -- "${exclude[@]}")
git -C "$root" archive --format=tar --prefix="$name/" "$commit" -- "${exclude[@]}" | tar -x -C "$tmp"
LC_ALL=C tar -C "$tmp" --sort=name --mtime="@$mtime" --owner=0 --group=0 --numeric-owner \
  --mode=u=rwX,go=rX --format=gnu -cf - "$name" | gzip -n -9 >"$tmp/$name.tar.gz"
mv "$tmp/$name.tar.gz" "$out/$name.tar.gz"
sha=$(sha256sum "$out/$name.tar.gz" | cut -d' ' -f1)
# A Spack source mirror: Spack 1.x looks a tarball up by its checksum, older
# Spack by its name.
for at in "_source-cache/archive/${sha:0:2}/$sha.tar.gz" "hybridtasks/$name.tar.gz"; do
  mkdir -p "$(dirname "$out/mirror/$at")"
  cp "$out/$name.tar.gz" "$out/mirror/$at"
done
line="version(\"$version\", sha256=\"$sha\")"

echo "tarball: $out/$name.tar.gz ($(git -C "$root" rev-parse --short "$commit"), $rev)"
echo "sha256:  $sha"
echo "recipe:  $line"
echo "mirror:  spack mirror add hybridtasks-releases file://$out/mirror"
if ((write_recipe)); then
  /usr/bin/python3 - "$recipe" "$version" "$line" <<'PY'
import re, sys
path, version, line = sys.argv[1:]
text = open(path).read().split("\n")
mine = [i for i, l in enumerate(text) if re.match(r'\s*version\("%s",' % re.escape(version), l)]
numbered = [i for i, l in enumerate(text) if re.match(r'\s*version\("\d', l)]
if mine:
    i = mine[0]
    text[i] = text[i][: len(text[i]) - len(text[i].lstrip())] + line
else:
    # The newest first, after the branch versions, as Spack's recipes list them.
    older = [i for i in numbered
             if tuple(map(int, re.search(r'"([\d.]+)"', text[i]).group(1).split("."))) <
             tuple(map(int, version.split(".")))]
    branch = [i for i, l in enumerate(text) if re.match(r'\s*version\("\w+", branch=', l)]
    if not older and not numbered and not branch:
        sys.exit("release.sh: the recipe has no version() line to put it beside")
    at = older[0] if older else (numbered[-1] + 1 if numbered else branch[-1] + 1)
    text.insert(at, "    " + line)
open(path, "w").write("\n".join(text))
PY
  echo "written into $recipe"
fi
