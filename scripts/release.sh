#!/usr/bin/env bash
# Makes the HybridTasks source release hybridtasks-<version>.tar.gz from the
# commit RELEASES names for <version>, and prints its sha256 and the line the
# Spack recipe needs for it.
#   scripts/release.sh <version> [--rev <revision>] [-o <dir>] [--record]
#     --rev     release this revision instead: a version not yet in RELEASES
#     -o        where to write (default: build/release in the checkout); the
#               tarball is also laid out as a Spack source mirror in <dir>/mirror
#     --record  write "<version> <commit>" into RELEASES and the
#               version("<version>", sha256=...) line into the recipe
#               (spack/spack_repo/hybridtasks/packages/hybridtasks/package.py);
#               HT_RELEASES and HT_RECIPE name other files
#
# The tarball is reproducible: the same commit gives the same bytes.  It holds
# the commit's tracked files under hybridtasks-<version>/, less the Spack
# files (spack/, spack.yaml: Spack takes the recipe from a package
# repository, not from the tarball), plus RELEASE, "<version> <commit>":
# a build reports <version> where RELEASE is, <version>.dev elsewhere.
# Entries are sorted by name, owned by 0:0, modes 644 or 755, dated by the
# commit (a shallow clone has the same), and gzip stores no name or time.
# By hand, with GNU tar and gzip:
#   git archive --prefix=hybridtasks-<v>/ <commit> -- . ':!spack' ':!spack.yaml' | tar -x -C <tmp>
#   echo "<v> <commit>" > <tmp>/hybridtasks-<v>/RELEASE
#   tar -C <tmp> --sort=name --mtime=@<time> --owner=0 --group=0 --numeric-owner \
#     --mode=u=rwX,go=rX --format=gnu -cf - hybridtasks-<v> | gzip -n -9 > hybridtasks-<v>.tar.gz
set -euo pipefail
die() { echo "release.sh: $*" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
recipe=${HT_RECIPE:-$root/spack/spack_repo/hybridtasks/packages/hybridtasks/package.py}
releases=${HT_RELEASES:-$root/RELEASES}
version="" rev="" out="" record=0
while (($#)); do
  case $1 in
    --rev) (($# >= 2)) || die "--rev needs a revision"; rev=$2; shift 2 ;;
    -o) (($# >= 2)) || die "-o needs a folder"; out=$2; shift 2 ;;
    --record) record=1; shift ;;
    -h | --help) sed -n '2,/^#$/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option '$1'; accepted: --rev <revision>, -o <dir>, --record" ;;
    *) [[ -z $version ]] || die "one version only (got '$version' and '$1')"; version=$1; shift ;;
  esac
done
[[ -n $version ]] || die "usage: release.sh <version> [--rev <revision>] [-o <dir>] [--record]"
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "version '$version': accepted is <major>.<minor>.<patch>, e.g. 0.9.0"
git -C "$root" rev-parse --git-dir >/dev/null 2>&1 || die "$root is not a git checkout"
[[ -f $releases ]] || die "no $releases"
listed=$(awk -v v="$version" '$1 == v { print $2 }' "$releases")
[[ -z $listed || $listed =~ ^[0-9a-f]{40}$ ]] || die "$releases: version $version names '$listed', not a full commit hash"
if [[ -n $rev ]]; then
  commit=$(git -C "$root" rev-parse --verify -q "$rev^{commit}") || die "revision '$rev' not found"
  [[ -z $listed || $listed == "$commit" ]] ||
    die "$releases names $listed for $version, not $commit ($rev)"
  how=$rev
elif [[ -n $listed ]]; then
  if ! git -C "$root" cat-file -e "$listed^{commit}" 2>/dev/null; then
    [[ $(git -C "$root" rev-parse --is-shallow-repository) == true ]] &&
      die "commit $listed ($version in $releases) is not in this shallow clone: git fetch --unshallow"
    die "commit $listed ($version in $releases) is not in this clone"
  fi
  commit=$listed
  how="$version in $(basename "$releases")"
else
  known=$(awk '/^[0-9]/ { printf "%s%s", sep, $1; sep = ", " }' "$releases")
  die "version $version is not in $releases (${known:-none}); a new release: --rev <commit> --record"
fi
# A tag, where there is one, names the same commit.
if tagged=$(git -C "$root" rev-parse --verify -q "refs/tags/v$version^{commit}"); then
  [[ $tagged == "$commit" ]] || die "tag v$version is $tagged, not the release's $commit"
fi
# The version the build reports (project(... VERSION ...)) must be the one released.
built=$(git -C "$root" show "$commit:CMakeLists.txt" | sed -n 's/^project(HybridTasks VERSION \([0-9.]*\).*/\1/p')
[[ $built == "$version" ]] || die "$how's CMakeLists.txt says version '${built:-none}', not $version"
! git -C "$root" cat-file -e "$commit:RELEASE" 2>/dev/null || die "$how tracks a file RELEASE, the tarball's own"

name=hybridtasks-$version
out=${out:-$root/build/release}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
exclude=(. ':(exclude)spack' ':(exclude)spack.yaml')
mtime=$(git -C "$root" log -1 --format=%ct "$commit")
git -C "$root" archive --format=tar --prefix="$name/" "$commit" -- "${exclude[@]}" | tar -x -C "$tmp"
echo "$version $commit" >"$tmp/$name/RELEASE"
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

echo "tarball: $out/$name.tar.gz ($(git -C "$root" rev-parse --short "$commit"), $how)"
echo "sha256:  $sha"
echo "recipe:  $line"
echo "mirror:  spack mirror add hybridtasks-releases file://$out/mirror"
if ((record)); then
  if [[ -z $listed ]]; then
    echo "$version $commit" >>"$releases"
    echo "written into $releases"
  fi
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
