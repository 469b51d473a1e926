#!/usr/bin/env bash
# A release matches its recipe.  scripts/release.sh's tarball is the same
# bytes whoever makes it, holds exactly the commit's tracked files less the
# Spack files plus RELEASE, and bad input is refused with exit 2; --record
# writes RELEASES and the recipe.  Every version of RELEASES is in the recipe
# with the sha256 of release.sh's tarball of its commit, and no other; each
# is older than this tree's version (whose builds report <version>.dev).  The
# newest release's tarball holds what the docs say an install holds (the
# <prefix>/... paths of README.md and docs/), and its install rules put it
# there; this build's own install (cmake --install) holds every such path.
# The check rejects generated wrong recipes and RELEASES.  Exit 77 (skipped)
# outside a git checkout (a release tarball), and, after every other check,
# when a release's commit is missing because the clone is shallow.
#   release_tarball.sh <source dir> <scratch dir> <build dir>
set -euo pipefail
src=$1
scratch=$2
build=$3
say() { printf '[release test] %s\n' "$*"; }
fail() { say "FAILED: $*"; exit 1; }
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || { say "not a git checkout: skipped"; exit 77; }
release=$src/scripts/release.sh
recipe=$src/spack/spack_repo/hybridtasks/packages/hybridtasks/package.py
releases=$src/RELEASES
shallow=$(git -C "$src" rev-parse --is-shallow-repository)
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

# Its files: the commit's tracked files less spack/ and spack.yaml, and RELEASE.
tar -tzf "$tarball" | grep -v '/$' | sed "s|^hybridtasks-$v/||" | sort >"$scratch/in-tarball"
{ git -C "$src" ls-tree -r --name-only HEAD | grep -v -e '^spack/' -e '^spack\.yaml$'; echo RELEASE; } |
  sort >"$scratch/tracked"
diff "$scratch/tracked" "$scratch/in-tarball" || fail "the tarball's files are not HEAD's tracked files less the Spack files, and RELEASE"
[[ -z $(tar -tzvf "$tarball" | awk '$2 != "0/0"') ]] || fail "entries not owned by 0/0"
[[ $(tar -xzOf "$tarball" "hybridtasks-$v/RELEASE") == "$v $(git -C "$src" rev-parse HEAD)" ]] ||
  fail "RELEASE is not '$v <HEAD's commit>'"
say "$(wc -l <"$scratch/tracked") files, as tracked, RELEASE naming HEAD"

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
expect_refusal "version 99\.0\.0 is not in .*RELEASES \([0-9., ]+\); a new release: --rev <commit> --record" 99.0.0
expect_refusal "revision 'no-such-rev' not found" "$v" --rev no-such-rev
expect_refusal "unknown option '--bogus'" "$v" --bogus
say "bad input refused"

# --record: writes the line into copies of the recipe (replacing an older
# one) and of RELEASES.
cp "$recipe" "$scratch/package.py"
cp "$releases" "$scratch/RELEASES"
HT_RECIPE=$scratch/package.py HT_RELEASES=$scratch/RELEASES "$release" "$v" --rev HEAD -o "$scratch/a" --record >/dev/null
grep -q "^    version(\"$v\", sha256=\"$sha_a\")$" "$scratch/package.py" || fail "--record wrote no version line"
[[ $(grep -c "version(\"$v\"," "$scratch/package.py") == 1 ]] || fail "--record left two $v lines"
[[ $(tail -1 "$scratch/RELEASES") == "$v $(git -C "$src" rev-parse HEAD)" ]] || fail "--record wrote no RELEASES line"
sed -i "s/^$v .*/$v $(printf '%040d' 1)/" "$scratch/RELEASES"
HT_RELEASES=$scratch/RELEASES expect_refusal "RELEASES names 0{39}1 for $v, not [0-9a-f]{40} \(HEAD\)" "$v" --rev HEAD
say "--record writes version(\"$v\", ...) and '$v <commit>'"

# What the docs say an install holds: each <prefix>/<path> of README.md and
# docs/, one {a,b} group expanded, <name> a wildcard; a path ending in / is a
# folder that is not empty.
expand() {
  if [[ $1 =~ ^(.*)\{([^}]*)\}(.*)$ ]]; then
    local pre=${BASH_REMATCH[1]} post=${BASH_REMATCH[3]} alt
    IFS=, read -ra alts <<<"${BASH_REMATCH[2]}"
    for alt in "${alts[@]}"; do expand "$pre$alt$post"; done
  else
    sed 's/<[^>]*>/*/g' <<<"$1"
  fi
}
grep -rhoE --include='*.md' '(<prefix>|\$\(spack location -i hybridtasks[^)]*\))/[A-Za-z0-9_./{},<>*-]+' \
  "$src/README.md" "$src/docs" | sed 's|^[^/]*)*/||; s|\.*$||' | sort -u |
  while read -r p; do expand "$p"; done | sort -u >"$scratch/docs-paths"
grep -q . "$scratch/docs-paths" || fail "the docs name no installed path"
holds() { # <root> <path>: the path, a wildcard, is there (a folder not empty)
  local hit
  for hit in $1/$2; do
    [[ $2 == */ ]] && [[ -d $hit && -n $(ls -A "$hit") ]] && return 0
    [[ $2 != */ && -e $hit ]] && return 0
  done
  return 1
}

# This build, installed: every path the docs name.
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >"$scratch/install.log" || { cat "$scratch/install.log"; fail "cmake --install failed"; }
while read -r p; do
  holds "$prefix" "$p" || fail "the docs name <prefix>/$p; this build's install has no such thing"
done <"$scratch/docs-paths"
say "this build's install holds the $(wc -l <"$scratch/docs-paths") paths the docs name: $(tr '\n' ' ' <"$scratch/docs-paths")"

# A release tarball's install, without building it: where each path the
# docs name comes from, and the folder its install rules name for it.
source_of() { # <installed path> -> "<source path> <install destination>"
  case $1 in
    bin | bin/*) echo "- -" ;; # the drivers: built, run by the recipe's stand-alone tests
    share/hybridtasks/input/*) echo "input/${1#share/hybridtasks/input/} \${CMAKE_INSTALL_DATADIR}/hybridtasks/input" ;;
    share/hybridtasks/slurm/*) echo "scripts/slurm/${1#share/hybridtasks/slurm/} \${CMAKE_INSTALL_DATADIR}/hybridtasks/slurm" ;;
    share/doc/HybridTasks/*) echo "${1#share/doc/HybridTasks/} \${CMAKE_INSTALL_DOCDIR}" ;;
    *) return 1 ;;
  esac
}
tarball_installs() { # <unpacked tarball>: each path the docs name, from its sources and rules
  local p from to
  while read -r p; do
    read -r from to < <(source_of "$p") || { echo "the docs name <prefix>/$p, from no known source"; return 1; }
    [[ $from == - ]] && continue
    holds "$1" "$from" || { echo "the docs name <prefix>/$p; the tarball has no $from"; return 1; }
    grep -qF "DESTINATION $to" "$1"/apps/CMakeLists.txt ||
      { echo "the docs name <prefix>/$p; no install rule in apps/CMakeLists.txt puts anything in $to"; return 1; }
  done <"$scratch/docs-paths"
}

# RELEASES against the recipe: each version's commit here, its tarball's
# sha256 the recipe's, older than this tree's $v; the newest one's install
# as the docs say.  Prints why not and returns 1; counts in $missing the
# releases whose commits a shallow clone lacks.
check_releases() { # <RELEASES> <recipe>
  local list=$1 rcp=$2 rv commit rsha tsha newest made
  local -a versions
  missing=0
  mapfile -t versions < <(awk '/^[0-9]/ { print $1 }' "$list")
  ((${#versions[@]})) || { echo "$list names no release"; return 1; }
  local url
  url=$(sed -n 's/^    url = "\(.*\)"$/\1/p' "$rcp")
  [[ $url == */hybridtasks-*.tar.gz ]] || { echo "the recipe's url '$url' is not .../hybridtasks-<version>.tar.gz"; return 1; }
  for rv in $(sed -n 's/^    version("\([0-9][0-9.]*\)".*/\1/p' "$rcp"); do
    [[ " ${versions[*]} " == *" $rv "* ]] || { echo "the recipe names $rv, RELEASES does not"; return 1; }
  done
  newest=$(printf '%s\n' "${versions[@]}" | sort -V | tail -1)
  for rv in "${versions[@]}"; do
    commit=$(awk -v v="$rv" '$1 == v { print $2 }' "$list")
    [[ $(printf '%s\n' "$rv" "$v" | sort -V | tail -1) == "$v" && $rv != "$v" ]] ||
      { echo "release $rv is not older than this tree's version $v (CMakeLists.txt)"; return 1; }
    rsha=$(sed -n "s/^    version(\"${rv//./\\.}\", sha256=\"\([0-9a-f]*\)\")$/\1/p" "$rcp")
    [[ $rsha =~ ^[0-9a-f]{64}$ ]] || { echo "RELEASES names $rv, the recipe has no version(\"$rv\", sha256=...)"; return 1; }
    if ! git -C "$src" cat-file -e "$commit^{commit}" 2>/dev/null && [[ $shallow == true ]]; then
      say "release $rv: its commit $commit is not in this shallow clone, its checksum is not checked"
      missing=$((missing + 1))
      continue
    fi
    made=$scratch/rel-$rv-$commit # made once, whichever case asks
    if [[ ! -f $made/hybridtasks-$rv.tar.gz ]]; then
      HT_RELEASES=$list "$release" "$rv" -o "$made" >"$scratch/rel.log" 2>&1 || { cat "$scratch/rel.log"; return 1; }
    fi
    tsha=$(sha256sum <"$made/hybridtasks-$rv.tar.gz" | cut -d' ' -f1)
    [[ $tsha == "$rsha" ]] ||
      { echo "release $rv: the recipe says $rsha, release.sh's tarball of $commit is $tsha"; return 1; }
    say "release $rv: the recipe's sha256 is that of the tarball of ${commit:0:12}"
    [[ $rv == "$newest" ]] || continue
    rm -rf "$scratch/unpacked" && mkdir "$scratch/unpacked"
    tar -xzf "$made/hybridtasks-$rv.tar.gz" -C "$scratch/unpacked"
    tarball_installs "$scratch/unpacked/hybridtasks-$rv" || return 1
    say "release $rv: its install holds what the docs name, by its sources and install rules"
  done
}
check_releases "$releases" "$recipe" >"$scratch/check.log" || { cat "$scratch/check.log"; fail "a release does not match its recipe or the docs"; }
cat "$scratch/check.log"
skipped=$missing

# Wrong answers it must reject, generated from the right ones.
first=$(awk '/^[0-9]/ { print $1 " " $2; exit }' "$releases")
fv=${first% *}
fc=${first#* }
rejects() { # <message regex> <RELEASES> <recipe>
  local out
  if out=$(check_releases "$2" "$3" 2>&1); then fail "accepted a wrong case, expected /$1/"; fi
  grep -Eq "$1" <<<"$out" || fail "rejected with '$out', expected /$1/"
}
grep -v "^$fv " "$releases" >"$scratch/no-release"
rejects "the recipe names $fv, RELEASES does not|names no release" "$scratch/no-release" "$recipe"
grep -v "version(\"$fv\"," "$recipe" >"$scratch/no-version.py"
rejects "RELEASES names $fv, the recipe has no version" "$releases" "$scratch/no-version.py"
{ cat "$releases"; echo "$v $(git -C "$src" rev-parse HEAD)"; } >"$scratch/not-older"
rejects "release $v is not older than this tree's version $v" "$scratch/not-older" "$recipe"
if git -C "$src" rev-parse -q --verify "$fc~1^{commit}" >/dev/null; then # not cut off by a shallow clone
  fsha=$(sed -n "s/^    version(\"${fv//./\\.}\", sha256=\"\([0-9a-f]*\)\")$/\1/p" "$recipe")
  wrong=${fsha:0:63}$([[ ${fsha:63} == 0 ]] && echo 1 || echo 0)
  sed "s/$fsha/$wrong/" "$recipe" >"$scratch/wrong-sha.py"
  rejects "release $fv: the recipe says $wrong, release.sh's tarball of $fc is $fsha" "$releases" "$scratch/wrong-sha.py"
  sed "s/^$fv $fc$/$fv $(git -C "$src" rev-parse "$fc~1")/" "$releases" >"$scratch/other-commit"
  rejects "release $fv: the recipe says [0-9a-f]{64}, release.sh's tarball of|says version" "$scratch/other-commit" "$recipe"
fi
if [[ $shallow != true ]]; then
  sed "s/^$fv $fc$/$fv $(printf '%040d' 1)/" "$releases" >"$scratch/no-commit"
  rejects "commit 0{39}1 \($fv in .*\) is not in this clone" "$scratch/no-commit" "$recipe"
fi
if [[ -d $scratch/unpacked ]]; then # the newest release, unpacked: without LICENSE, without its rule
  tree=$(echo "$scratch"/unpacked/hybridtasks-*)
  mv "$tree/LICENSE" "$scratch/LICENSE"
  out=$(tarball_installs "$tree") && fail "a tarball without LICENSE accepted"
  grep -q "the tarball has no LICENSE" <<<"$out" || fail "a tarball without LICENSE rejected with '$out'"
  mv "$scratch/LICENSE" "$tree/LICENSE"
  sed -i '/CMAKE_INSTALL_DOCDIR/d' "$tree/apps/CMakeLists.txt"
  out=$(tarball_installs "$tree") && fail "install rules without the LICENSE's accepted"
  grep -qF 'no install rule in apps/CMakeLists.txt puts anything in ${CMAKE_INSTALL_DOCDIR}' <<<"$out" ||
    fail "install rules without the LICENSE's rejected with '$out'"
fi
say "wrong checksum, version, commit, sources or install rules rejected"

((skipped == 0)) || { say "$skipped release(s) not checked in this shallow clone: skipped"; exit 77; }
say "passed"
