#!/usr/bin/env bash
# Writes a Spack site configuration for a Debian 12 machine to stdout: the
# Debian packages scripts/deps.sh installs as externals (not buildable), and a
# Kokkos / Kokkos Kernels / Trilinos prefix.  spack.yaml includes it as
# spack/site.yaml:
#   spack/site-debian12.sh > spack/site.yaml                      # scripts/deps.sh's Kokkos 3.4
#   spack/site-debian12.sh --kokkos 4.7.01 <prefix> --teuchos 13.2.0 <prefix> > spack/site.yaml
#   spack/site-debian12.sh --kokkos 4.6.01 <prefix> --kokkos-variants '~deprecated_code cxxstd=20' \
#     --teuchos-buildable > spack/site.yaml     # a Kokkos without tasking (scripts/kokkos5-standin.sh)
#   spack/site-debian12.sh --builtin <spack-packages>/repos/spack_repo/builtin ...
#                                                    (an offline copy of Spack's builtin packages)
# A site with other compilers or MPI writes its own (`spack external find` helps).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kokkos="" kokkos_prefix="" teuchos="" teuchos_prefix="" builtin="" kokkos_variants="" teuchos_buildable=0
while (($#)); do
  case $1 in
    --kokkos) kokkos=$2; kokkos_prefix=$3; shift 3 ;;
    --teuchos) teuchos=$2; teuchos_prefix=$3; shift 3 ;;
    --builtin) builtin=$2; shift 2 ;;
    --kokkos-variants) kokkos_variants=$2; shift 2 ;; # default: +deprecated_code on 4.5-4.7
    --teuchos-buildable) teuchos_buildable=1; shift ;;  # Spack builds Trilinos (Teuchos alone)
    *) echo "site-debian12.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
if [[ -z $kokkos ]]; then # one prefix for all three: the one scripts/deps.sh builds
  kokkos=3.4.01
  kokkos_prefix=$("$here/../scripts/deps.sh")
  teuchos=13.2.0
  teuchos_prefix=$kokkos_prefix
fi
ext() { # name spec prefix
  printf '  %s:\n    buildable: false\n    externals:\n    - spec: %s\n      prefix: %s\n' "$1" "$2" "$3"
}
echo "# Written by spack/site-debian12.sh on $(date -u +%Y-%m-%d)"
if [[ -n $builtin ]]; then
  printf 'repos:\n  builtin: %s\n' "$builtin"
fi
cat <<YAML
packages:
  all:
    providers:
      mpi: [openmpi]
      blas: [openblas]
      lapack: [openblas]
  gcc:
    buildable: false
    externals:
    - spec: gcc@12.2.0 languages:='c,c++,fortran'
      prefix: /usr
      extra_attributes:
        compilers: {c: /usr/bin/gcc, cxx: /usr/bin/g++, fortran: /usr/bin/gfortran}
  blas:
    require: openblas
  lapack:
    require: openblas
YAML
ext cmake cmake@3.25.1 /usr
ext gmake gmake@4.3 /usr
ext ninja ninja@1.11.1 /usr
ext openmpi openmpi@4.1.4 /usr
ext hdf5 "hdf5@1.10.8+mpi+hl" /usr/lib/x86_64-linux-gnu/hdf5/openmpi
ext openblas openblas@0.3.21 /usr
ext openssl openssl@3.0.19 /usr
ext googletest googletest@1.12.1 /usr
ext python python@3.11.2 /usr
ext py-h5py py-h5py@3.7.0 /usr
ext py-numpy py-numpy@1.24.2 /usr
ext py-matplotlib py-matplotlib@3.6.3 /usr
[[ -n $kokkos_variants ]] || kokkos_variants=$([[ $kokkos == 4.[5-7]* ]] && echo +deprecated_code || true)
ext kokkos "kokkos@$kokkos+openmp+serial ${kokkos_variants}" "$kokkos_prefix"
ext kokkos-kernels "kokkos-kernels@$kokkos+openmp" "$kokkos_prefix"
# What scripts/deps.sh builds of Trilinos: Teuchos, no solver package.  Its
# Kokkos is the kokkos external above (the same prefix), so for Spack this
# Trilinos brings no Kokkos of its own: ~kokkos.
off="~amesos~amesos2~anasazi~aztec~belos~epetra~epetraext~ifpack~ifpack2~ml~muelu~sacado~tpetra~fortran"
((teuchos_buildable)) && exit 0
ext trilinos "trilinos@$teuchos+mpi~kokkos$off" "$teuchos_prefix"
