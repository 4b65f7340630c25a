"""The lit test format of the differential check (lit.local.cfg)."""
import os
import subprocess

import lit.Test
import lit.formats


class CrossCheck(lit.formats.TestFormat):
    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        src = localConfig.collc_src_root
        examples = os.path.join(src, "examples")
        for name in sorted(os.listdir(examples)):
            if name.endswith(".coll"):
                yield lit.Test.Test(testSuite, path_in_suite + ("examples", name),
                                    localConfig, file_path=os.path.join(examples, name))
        programs = os.path.join(src, "test", "verify")
        for root, _, files in sorted(os.walk(programs)):
            for name in sorted(files):
                if name.endswith(".mlir"):
                    rel = os.path.relpath(os.path.join(root, name), programs)
                    yield lit.Test.Test(testSuite, path_in_suite + ("verify",) + tuple(rel.split(os.sep)),
                                        localConfig, file_path=os.path.join(root, name))

    def execute(self, test, litConfig):
        path = test.getFilePath()
        collc = os.path.join(test.config.collc_tools_dir, "collc")
        command = [collc, "verify", path, "--cross-check"]
        if path.endswith(".coll"):
            # The examples' proofs for P = 1..64 are the build's (every
            # example is compiled with the proof cache): Z3's verdicts are
            # read from there, not made again, and the simulation is run
            # on every program as before and must agree with them.
            cache = test.config.collc_proof_cache or os.path.join(
                test.config.test_exec_root, "collc-proof-cache")
            command += ["--ranks", "1..64", "--proof-cache", cache]
        run = subprocess.run(command, capture_output=True, text=True)
        output = "$ " + " ".join(command) + "\n" + run.stdout + run.stderr
        if run.returncode == 2:
            # An input the op verifier rejects (a mutant group table) is
            # refused by the simulation alike: nothing to compare.
            with open(path) as f:
                expected = "Expected: rejected as input" in f.read()
            return (lit.Test.PASS if expected else lit.Test.FAIL), output
        if run.returncode not in (0, 1):
            return lit.Test.FAIL, output
        if "cross-check: the simulation agrees" not in run.stdout or \
                "cross-check: not compared" in run.stdout:
            return lit.Test.FAIL, output + "\n(not every program was compared)\n"
        return lit.Test.PASS, output
