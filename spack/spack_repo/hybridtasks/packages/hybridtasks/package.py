# The HybridTasks recipe, in the project's own Spack package repository
# (spack repo add <checkout>/spack/spack_repo/hybridtasks); docs/install.md.

import re

from spack_repo.builtin.build_systems.cmake import CMakePackage

from spack.package import *


class Hybridtasks(CMakePackage):
    """Hybrid MPI + Kokkos tasks mini-applications: every MPI rank runs a task
    scheduler (Kokkos' TaskScheduler, or OpenMP tasks on Kokkos 5). Cannon
    GEMM with one task per tile product (Kokkos Kernels), Graph500 BFS and
    SSSP, UTS with work stealing, an imbalance profiler; input decks read
    by Teuchos, results written to HDF5."""

    # Release tarballs are made by scripts/release.sh from the commit the
    # project's RELEASES file names for each version; CTest release_tarball
    # checks every sha256 below against it.
    homepage = "https://github.com/hybridtasks/hybridtasks"
    url = "https://github.com/hybridtasks/hybridtasks/releases/download/v0.9.0/hybridtasks-0.9.0.tar.gz"
    git = "https://github.com/hybridtasks/hybridtasks.git"

    # No maintainers(): Spack names maintainers by GitHub user handle, and no
    # person has taken this recipe on (the project's history names none; the
    # organization above is no user).

    license("BSD-3-Clause")

    version("main", branch="main")
    version("0.9.0", sha256="1417c9da78097ad1be83a9262a6d36941922b8e980f6f1341f081ab8e0047eae")

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

    # Stand-alone tests (spack test run hybridtasks): each driver solves a
    # tiny problem from an installed deck and checks its answer itself (a
    # wrong one exits 1); ht-report reads back the results file a run wrote.
    def _run(self, driver, deck, ranks, *sets):
        """Runs <driver> on the installed input/<deck> with --set options on
        <ranks> MPI ranks of one thread each; returns its output."""
        mpiexec = Executable(self.spec["mpi"].prefix.bin.mpiexec)
        args = ["-n", str(ranks), join_path(self.prefix.bin, driver)]
        args += [join_path(self.prefix.share.hybridtasks.input, deck), "--kokkos-num-threads=1"]
        for s in sets:
            args += ["--set", s]
        out = mpiexec(*args, output=str.split, error=str.split, timeout=600)
        # Every run names the results file it wrote.
        assert re.search(r"^results: /\S+\.h5$", out, re.M), out
        return out

    def test_bfs(self):
        """Graph500 BFS and SSSP, SCALE 10, 2 ranks: every search valid"""
        out = self._run(
            "graph500_bfs",
            "graph500_default.yaml",
            2,
            "Graph500/SCALE=10",
            "Graph500/NBFS=4",
            "Graph500/kernels=bfs,sssp",
        )
        for kernel in ("BFS", "SSSP"):
            assert re.search(r"^%s +4/4: .*, valid$" % kernel, out, re.M), out

    def test_gemm(self):
        """Cannon GEMM, N = 256, 1 rank: Freivalds' check passed"""
        out = self._run("cannon_gemm", "gemm_default.xml", 1, "GEMM/N=256", "GEMM/tile=64")
        assert re.search(r"^validation: Freivalds .*: PASSED$", out, re.M), out

    def test_uts(self):
        """UTS sample tree T1, 2 ranks stealing: its published node count"""
        out = self._run("uts", "uts_T1.yaml", 2, "Search/repetitions=1")
        assert re.search(r"^tree_size: +4130071$", out, re.M), out
        assert re.search(r"^counts: +match T1$", out, re.M), out

    def test_report(self):
        """ht-report summarizes a GEMM run's results file"""
        if self.spec.satisfies("~report"):
            raise SkipTest("ht-report is not installed (~report)")
        out = self._run("cannon_gemm", "gemm_default.xml", 1, "GEMM/N=128", "GEMM/tile=64")
        results = re.findall(r"^results: (/\S+\.h5)$", out, re.M)[-1]
        report = Executable(join_path(self.prefix.bin, "ht-report"))
        summary = report(results, output=str.split, error=str.split)
        assert re.search(r"^  Freivalds: +PASSED", summary, re.M), summary
