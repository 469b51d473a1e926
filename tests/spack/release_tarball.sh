#!/usr/bin/env bash
# scripts/release.sh and the Spack recipe's versions: the tarball is the same
# bytes whoever makes it, holds exactly the revision's tracked files less the
# Spack files, bad input is refused with exit 2, --recipe writes the version
# line, and every version of the recipe whose tag v<version> this clone has
# carries the checksum of the tarball made from that tag (a version whose tag
# is missing here is reported, not checked).  Exit 77 (skipped) outside a git
# checkout, e.g. in a release tarball.
#   release_tarball.sh <source dir> <scratch dir>
set -euo pipefail
src=$1
scratch=$2
say() { printf '[release test] %s\n' "$*"; }
fail() { say "FAILED: $*"; exit 1; }
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || { say "not a git checkout: skipped"; exit 77; }
release=$src/scripts/release.sh
recipe=$src/spack/spack_repo/hybridtasks/packages/hybridtasks/package.py
rm -rf "$scratch"
mkdir -p "$scratch"

# The version the tree says, released from HEAD twice, under different umasks.
v=$(sed -n 's/^project(HybridTasks VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[[ -n $v ]] || fail "no project(HybridTasks VERSION ...) in CMakeLists.txt"
(umask 022 && "$release" "$v" --rev HEAD -o "$scratch/a" >"$scratch/a.log")
(umask 077 && "$release" "$v" --rev HEAD -o "$scratch/b" >"$scratch/b.log")
tarball=$scratch/a/hybridtasks-$v.tar.gz
sha_a=$(sha256sum <"$tarball" | cut -d' ' -f1)
sha_b=$(sha256sum <"$scratch/b/hybridtasks-$v.tar.gz" | cut -d' ' -f1)
[[ $sha_a == "$sha_b" ]] || fail "two tarballs of HEAD differ ($sha_a, $sha_b)"
grep -qx "sha256:  $sha_a" "$scratch/a.log" || fail "release.sh printed another sha256: $(cat "$scratch/a.log")"
grep -qx "recipe:  version(\"$v\", sha256=\"$sha_a\")" "$scratch/a.log" || fail "no recipe line printed"
for at in "_source-cache/archive/${sha_a:0:2}/$sha_a.tar.gz" "hybridtasks/hybridtasks-$v.tar.gz"; do
  cmp -s "$tarball" "$scratch/a/mirror/$at" || fail "the mirror has no copy at $at"
done
say "HEAD as $v: $sha_a, twice"

# Its files: the revision's tracked files less spack/ and spack.yaml.
tar -tzf "$tarball" | grep -v '/$' | sed "s|^hybridtasks-$v/||" | sort >"$scratch/in-tarball"
git -C "$src" ls-tree -r --name-only HEAD | grep -v -e '^spack/' -e '^spack\.yaml$' | sort >"$scratch/tracked"
diff "$scratch/tracked" "$scratch/in-tarball" || fail "the tarball's files are not HEAD's tracked files less the Spack files"
[[ -z $(tar -tzvf "$tarball" | awk '$2 != "0/0"') ]] || fail "entries not owned by 0/0"
say "$(wc -l <"$scratch/tracked") files, as tracked"

# Bad input: exit 2, a message naming what was wrong.
expect_refusal() { # <message regex> <release.sh arguments...>
  local want=$1 rc=0
  shift
  "$release" "$@" -o "$scratch/bad" >"$scratch/bad.log" 2>&1 || rc=$?
  ((rc == 2)) && grep -Eq "$want" "$scratch/bad.log" ||
    fail "release.sh $* gave exit $rc and '$(cat "$scratch/bad.log")', expected exit 2 and /$want/"
}
expect_refusal "version '0\.9': accepted is <major>\.<minor>\.<patch>" 0.9 --rev HEAD
expect_refusal "CMakeLists.txt says version '$v', not 99\.0\.0" 99.0.0 --rev HEAD
expect_refusal "revision 'no-such-rev' not found" "$v" --rev no-such-rev
expect_refusal "unknown option '--bogus'" "$v" --bogus
say "bad input refused"

# --recipe: writes the line into a copy of the recipe, replacing an older one.
cp "$recipe" "$scratch/package.py"
HT_RECIPE=$scratch/package.py "$release" "$v" --rev HEAD -o "$scratch/a" --recipe >/dev/null
grep -q "^    version(\"$v\", sha256=\"$sha_a\")$" "$scratch/package.py" || fail "--recipe wrote no version line"
[[ $(grep -c "version(\"$v\"," "$scratch/package.py") == 1 ]] || fail "--recipe left two $v lines"
say "--recipe writes version(\"$v\", ...)"

# The recipe's numbered versions: each one's url names the tarball release.sh
# makes, and its checksum is that of the tarball of its tag, where the tag is here.
url=$(sed -n 's/^    url = "\(.*\)"$/\1/p' "$recipe")
[[ -n $url ]] || fail "the recipe has no url"
checked=0
while read -r rv rsha; do
  [[ $rsha =~ ^[0-9a-f]{64}$ ]] || fail "version $rv: '$rsha' is not a sha256"
  [[ $url == */hybridtasks-*.tar.gz ]] || fail "url $url does not end in hybridtasks-<version>.tar.gz"
  if ! git -C "$src" rev-parse -q --verify "v$rv^{commit}" >/dev/null; then
    say "version $rv: no tag v$rv in this clone, its checksum is not checked"
    continue
  fi
  "$release" "$rv" -o "$scratch/tag" >/dev/null
  tsha=$(sha256sum <"$scratch/tag/hybridtasks-$rv.tar.gz" | cut -d' ' -f1)
  [[ $tsha == "$rsha" ]] || fail "version $rv: the recipe says $rsha, the tarball of v$rv is $tsha"
  say "version $rv: checksum matches the tarball of v$rv"
  checked=$((checked + 1))
done < <(sed -n 's/^    version("\([0-9][0-9.]*\)", sha256="\([^"]*\)")$/\1 \2/p' "$recipe")
[[ -n $(sed -n 's/^    version("\([0-9][0-9.]*\)", sha256=.*/\1/p' "$recipe") ]] || fail "the recipe has no numbered version"
say "passed ($checked tagged version(s) checked)"
