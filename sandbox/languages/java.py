"""Java 17 (OpenJDK): every ``.java`` compiled into ``classes/``, run as ``Main``; a JVM wants
more memory and threads than the defaults."""

from __future__ import annotations

from sandbox.languages.base import Language, image

HELLO = b"""import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Main {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.contains("\\"legal_actions\\"")) {
                System.out.println("{\\"action_index\\": 0}");
            } else if (line.contains("\\"start\\"")) {
                System.out.println("{\\"type\\": \\"ready\\"}");
            } else if (line.contains("\\"end\\"")) {
                return;
            }
            System.out.flush();
        }
    }
}
"""

LANGUAGE = Language(
    key="java",
    name="Java 17 (OpenJDK)",
    source="Main.java",
    suffixes=(".java",),
    order=20,
    hello=HELLO,
    broken=b"public class Main { void f() { undefinedName(); } }\n",
    broken_says="cannot find symbol",
    build=(
        "sh",
        "-c",
        "mkdir -p classes && javac -encoding UTF-8 -d classes $(find . -name '*.java')",
    ),
    # One GC thread, a small JIT: a JVM's own threads stay within the pids limit.
    run=(
        "java",
        "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1",
        "-XX:CICompilerCount=1",
        "-Xss8m",
        "-Xmx384m",
        # Small reservations for classes and code (1 GiB and 240 MiB by default).
        "-XX:CompressedClassSpaceSize=64m",
        "-XX:ReservedCodeCacheSize=32m",
        "-Xshare:auto",
        "-cp",
        "classes",
        "Main",
    ),
    env={"JAVA_TOOL_OPTIONS": "-Djava.io.tmpdir=/tmp"},
    image=image("java"),
    build_image=image("java"),
    host_tools=("javac", "java"),
    memory_mb=768,
    pids=96,
    reserve_mb=1280,
)
