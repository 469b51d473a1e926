# Sourced by the benchmarks: ht_measure <name> <value> prints a figure as a
# CTest measurement, which `ctest -T Test` records in Testing/*/Test.xml (a
# CDash site graphs it; scripts/bench gates it against perf/baselines/).
ht_measure() {
  printf '<CTestMeasurement type="numeric/double" name="%s">%s</CTestMeasurement>\n' "$1" "$2"
}
