# The HybridTasks recipe, kept in the project's own Spack package repository
# (spack/spack_repo/hybridtasks); spack.yaml at the top of the checkout adds it.
import os

from spack_repo.builtin.build_systems.cmake import CMakePackage, generator

from spack.package import *

# This recipe sits five levels below the root of the checkout it came with.
_CHECKOUT = os.path.abspath(os.path.join(os.path.dirname(__file__), *[os.pardir] * 5))


class Hybridtasks(CMakePackage):
    """Hybrid MPI + Kokkos-tasks mini-applications: every MPI rank runs a task
    scheduler (Kokkos' TaskScheduler, or OpenMP tasks on Kokkos 5).  Cannon GEMM with one task per tile
    product (Kokkos Kernels), Graph500 BFS variants, an imbalance profiler;
    input decks (Teuchos), HDF5 results."""

    # The git repository this recipe came with; `spack develop` (spack.yaml)
    # builds the working tree instead.
    git = "file://" + _CHECKOUT

    version("main", branch="main")
    version("develop", branch="main")

    depends_on("c", type="build")
    depends_on("cxx", type="build")
    depends_on("cmake@3.19:", type="build")
    depends_on("ninja", type="build")

    depends_on("mpi")
    depends_on("hdf5+mpi")
    depends_on("blas")
    # UTS draws its trees from SHA-1 (libcrypto).
    depends_on("openssl")
    # The task runtime (src/runtime/HT_TaskRuntime.hpp): Kokkos' TaskScheduler
    # exists up to Kokkos 4.7 (4.5-4.7: with deprecated code) and was removed
    # in 5.0; OpenMP tasks run on any Kokkos.  auto: the project's configure
    # check picks kokkos where the task DAG compiles, openmp otherwise.
    variant(
        "tasks",
        default="auto",
        values=("auto", "kokkos", "openmp"),
        multi=False,
        description="Task runtime: Kokkos TaskScheduler (Kokkos <= 4.7), OpenMP tasks, or auto",
    )
    depends_on("kokkos@3.4: +openmp")
    depends_on("kokkos+deprecated_code", when="tasks=kokkos ^kokkos@4.5:")
    conflicts("^kokkos@5:", when="tasks=kokkos", msg="Kokkos 5 removed tasking: use tasks=openmp")
    # kokkos-kernels pins its Kokkos to its own version.
    depends_on("kokkos-kernels@3.4: +openmp")
    # Kokkos 5 needs C++20, and so do the project's sources with it; Teuchos'
    # headers compile as C++20 from Trilinos 15.1 (trilinos/Trilinos#12757).
    conflicts("^kokkos@5: cxxstd=17", msg="Kokkos 5 requires C++20")
    depends_on("trilinos@15.1:", when="^kokkos cxxstd=20")
    # Teuchos (ParameterList, its XML and YAML readers) is all the project
    # reads of Trilinos, so every package the trilinos recipe enables by
    # default besides it is off: a site that builds Trilinos builds Teuchos,
    # not hours of solvers.  Trilinos's own Kokkos is not needed either; it is
    # preferred off in spack.yaml, not required, so that an existing Trilinos
    # that carries it (the one scripts/deps.sh builds) is still accepted.
    depends_on(
        "trilinos@13.2: +mpi ~amesos ~amesos2 ~anasazi ~aztec ~belos ~epetra ~epetraext"
        " ~ifpack ~ifpack2 ~ml ~muelu ~sacado ~tpetra ~fortran"
    )
    depends_on("googletest", type="test")
    depends_on("python", type="test")
    depends_on("py-h5py", type="test")
    depends_on("py-matplotlib", type="test")

    generator("ninja")

    def check(self):
        # The suite scripts/test runs, less the benchmarks (label perf) and the
        # Slurm test (it starts a cluster of its own): both are run by hand.
        ctest = Executable(self.spec["cmake"].prefix.bin.ctest)
        with working_dir(self.build_directory):
            ctest("-LE", "perf|slurm", "--output-on-failure", "-j", str(make_jobs))

    def cmake_args(self):
        tasks = self.spec.variants["tasks"].value
        return [
            self.define("HT_TASKS", "" if tasks == "auto" else tasks),
            self.define("BUILD_TESTING", self.run_tests),
            self.define("MPIEXEC_EXECUTABLE", self.spec["mpi"].prefix.bin.mpiexec),
        ]
