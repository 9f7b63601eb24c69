#!/bin/sh
# Checks the pictures of the teaching builtins (see CMakeLists.txt beside this file):
#   check_pictures.sh CAS SOURCE_DIR WORK_DIR xml|png
# Runs SOURCE_DIR/pictures.cas in WORK_DIR, compares its standard output with pictures.out
# (the returned values: the builtins print nothing), then checks every SVG it wrote:
#   xml  well-formed XML, by xmllint (Debian libxml2-utils)
#   png  renders to a non-empty PNG, by rsvg-convert (Debian librsvg2-bin)
# Exits 77 (CTest's SKIP_RETURN_CODE), saying why, when the tool is missing.
set -u
cas=$1 source_dir=$2 work_dir=$3 check=$4
case $check in
  xml) tool=xmllint package=libxml2-utils ;;
  png) tool=rsvg-convert package=librsvg2-bin ;;
  *) echo "usage: check_pictures.sh CAS SOURCE_DIR WORK_DIR xml|png" >&2; exit 2 ;;
esac
if ! command -v "$tool" >/dev/null 2>&1; then
  echo "SKIPPED: $tool is not installed (apt-get install $package; .ci/setup installs it)"
  exit 77
fi
rm -rf "$work_dir" && mkdir -p "$work_dir" && cd "$work_dir" || exit 1
"$cas" "$source_dir/pictures.cas" >actual.out 2>actual.err || { cat actual.err; exit 1; }
if ! diff -u "$source_dir/pictures.out" actual.out; then
  echo "pictures.cas printed other values than pictures.out holds"
  exit 1
fi
[ -s actual.err ] && { echo "pictures.cas wrote to standard error:"; cat actual.err; exit 1; }
status=0
count=0
for svg in *.svg; do
  count=$((count + 1))
  if [ "$check" = xml ]; then
    xmllint --noout "$svg" || { echo "$svg is not well-formed XML"; status=1; }
  else
    png=${svg%.svg}.png
    if ! rsvg-convert "$svg" -o "$png" || [ ! -s "$png" ]; then
      echo "rsvg-convert could not render $svg"
      status=1
    fi
  fi
done
[ "$count" -eq 7 ] || { echo "expected 7 SVG files, found $count"; status=1; }
[ $status -eq 0 ] && echo "$count pictures checked with $tool in $work_dir"
exit $status
