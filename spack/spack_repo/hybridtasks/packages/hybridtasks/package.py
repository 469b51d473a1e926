# The HybridTasks recipe, in the project's own Spack package repository
# (spack repo add <checkout>/spack/spack_repo/hybridtasks); docs/install.md.

from spack_repo.builtin.build_systems.cmake import CMakePackage

from spack.package import *


class Hybridtasks(CMakePackage):
    """Hybrid MPI + Kokkos tasks mini-applications: every MPI rank runs a task
    scheduler (Kokkos' TaskScheduler, or OpenMP tasks on Kokkos 5). Cannon
    GEMM with one task per tile product (Kokkos Kernels), Graph500 BFS and
    SSSP, UTS with work stealing, an imbalance profiler; input decks read
    by Teuchos, results written to HDF5."""

    # Release tarballs are made by scripts/release.sh from the tag v<version>.
    homepage = "https://github.com/hybridtasks/hybridtasks"
    url = "https://github.com/hybridtasks/hybridtasks/releases/download/v0.9.0/hybridtasks-0.9.0.tar.gz"
    git = "https://github.com/hybridtasks/hybridtasks.git"

    # TODO: the GitHub handle(s) of whoever answers for this recipe, in
    # maintainers(...).  Spack pings its maintainers by their user handles;
    # the project's history names no person's handle, and the organization in
    # the URLs above is no user that can be asked to review.

    license("BSD-3-Clause")

    version("main", branch="main")
    version("0.9.0", sha256="2ffa327ebadcb9f4213705ac52edc1161df6e1624c3bda49f9b523a109117d9b")

    variant(
        "tasks",
        default="kokkos",
        values=("kokkos", "openmp"),
        multi=False,
        description="Task runtime: Kokkos' TaskScheduler (Kokkos up to 4.7) or OpenMP tasks",
    )

    depends_on("c", type="build")
    depends_on("cxx", type="build")
    depends_on("cmake@3.19:", type="build")

    depends_on("mpi")
    depends_on("hdf5+mpi")
    depends_on("blas")
    # UTS draws its trees from SHA-1 (libcrypto).
    depends_on("openssl")

    depends_on("kokkos@3.4: +openmp")
    # kokkos-kernels pins its Kokkos to its own version.
    depends_on("kokkos-kernels@3.4: +openmp")
    # Kokkos deprecated its tasking in 4.5 (built only with deprecated code)
    # and removed it in 5.0; OpenMP tasks work on any Kokkos.
    conflicts(
        "^kokkos@4.5: ~deprecated_code",
        when="tasks=kokkos",
        msg="Kokkos 4.5-4.7 builds its tasking only with deprecated_code: use tasks=openmp",
    )
    conflicts("^kokkos@5:", when="tasks=kokkos", msg="Kokkos 5 has no tasking: use tasks=openmp")
    # Kokkos 5 requires C++20; Teuchos' headers compile as C++20 from
    # Trilinos 15.1 (trilinos/Trilinos#12757).
    conflicts("^kokkos@5: cxxstd=17", msg="Kokkos 5 requires C++20")
    depends_on("trilinos@15.1:", when="^kokkos cxxstd=20")
    # Teuchos (parameter lists and their XML and YAML readers) is all that is
    # used of Trilinos: every package the trilinos recipe enables by default
    # besides it is off.
    depends_on(
        "trilinos@13.2: +mpi ~amesos ~amesos2 ~anasazi ~aztec ~belos ~epetra ~epetraext"
        " ~ifpack ~ifpack2 ~ml ~muelu ~sacado ~tpetra ~fortran"
    )
    # Before 14.4 Trilinos builds a Kokkos of its own, a second one beside
    # the Kokkos above; from 14.4 it uses that Kokkos.
    conflicts("^trilinos@:14.3 +kokkos", msg="Trilinos before 14.4 would bring a second Kokkos")

    # ht-report (bin/) reads results files with h5py and numpy and plots them
    # with matplotlib; its first line names this python.
    variant(
        "report",
        default=True,
        description="Install ht-report, which summarizes, compares and plots results files "
        "(Python, h5py and matplotlib at run time)",
    )
    depends_on("python@3.8:", type=("build", "run"), when="+report")
    depends_on("py-h5py", type="run", when="+report")
    depends_on("py-numpy", type="run", when="+report")
    depends_on("py-matplotlib", type="run", when="+report")

    depends_on("googletest", type="test")
    # The tests read back every results file, and run ht-report.
    depends_on("python", type="test")
    depends_on("py-h5py", type="test")
    depends_on("py-numpy", type="test")
    depends_on("py-matplotlib", type="test")

    def cmake_args(self):
        args = [
            self.define_from_variant("HT_TASKS", "tasks"),
            self.define_from_variant("HT_INSTALL_REPORT", "report"),
            self.define("BUILD_TESTING", self.run_tests),
            self.define("MPIEXEC_EXECUTABLE", self.spec["mpi"].prefix.bin.mpiexec),
        ]
        # Spack's python, not the system's: the one its py-h5py and
        # py-matplotlib are built for (ht-report's first line, and the tests).
        if "python" in self.spec:
            args.append(self.define("HT_PYTHON", self.spec["python"].command.path))
        return args

    def check(self):
        # The suite less the benchmarks (label perf) and the Slurm test (it
        # starts a cluster of its own).
        ctest = Executable(self.spec["cmake"].prefix.bin.ctest)
        with working_dir(self.build_directory):
            ctest("-LE", "perf|slurm", "--output-on-failure", "-j", str(make_jobs))
