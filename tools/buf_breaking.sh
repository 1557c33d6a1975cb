#!/usr/bin/env bash
# buf breaking (FILE rules, buf.yaml) of proto/ against a git ref, by default
# the previous commit (HEAD~1: on main, the previous state of main).
#   tools/buf_breaking.sh [REF]
# A checkout without that commit (a shallow clone) has nothing to compare
# against: it says so and passes. Against a commit from before buf.gen.yaml
# (no stubs were published for other languages) the per-language package
# options were unset; setting them is not a break, so those six rules are left
# out for that one comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
ref="${1:-HEAD~1}"
buf=node_modules/.bin/buf
if ! git rev-parse --verify --quiet "${ref}^{commit}" >/dev/null; then
  echo "buf breaking: no commit ${ref} in this checkout (shallow clone?): nothing to compare against"
  exit 0
fi
if git cat-file -e "${ref}:buf.gen.yaml" 2>/dev/null; then
  "$buf" breaking --against ".git#ref=${ref}"
else
  config='{"version":"v2","modules":[{"path":"proto"}],"breaking":{"use":["FILE"],"except":[
    "FILE_SAME_GO_PACKAGE","FILE_SAME_JAVA_PACKAGE","FILE_SAME_JAVA_MULTIPLE_FILES",
    "FILE_SAME_JAVA_OUTER_CLASSNAME","FILE_SAME_CSHARP_NAMESPACE","FILE_SAME_RUBY_PACKAGE"]}}'
  "$buf" breaking --config "$config" --against ".git#ref=${ref}"
fi
echo "buf breaking: proto/ is compatible with ${ref}"
