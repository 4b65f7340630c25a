# lit configuration for collc: FileCheck tests of the dialect, the passes,
# the frontend's diagnostics and `collc trace`.
import os

import lit.formats

config.name = "collc"
# RUN lines use the system shell (`$?`, `cd`), whatever the verbosity.
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".coll", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.collc_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in", "CMakeLists.txt",
                   "unit", "mpi", "install", "Inputs", "fuzz"]
config.environment["PATH"] = os.pathsep.join(
    [config.collc_tools_dir, config.llvm_tools_dir, os.environ["PATH"]])
config.substitutions.append(("%collc_bin", os.path.join(config.collc_tools_dir, "collc")))
config.substitutions.append(("%examples", os.path.join(config.collc_src_root, "examples")))
config.substitutions.append(("%tools", os.path.join(config.collc_src_root, "tools")))
# The build's proof cache (collc compile --proof-cache), for tests about
# what a header says rather than about its proofs: the build proved the
# examples already (a test's own cache directory when the build keeps
# none).
config.substitutions.append(("%proof_cache", config.collc_proof_cache or
                             os.path.join(config.test_exec_root, "collc-proof-cache")))
