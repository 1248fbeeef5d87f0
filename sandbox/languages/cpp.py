"""C++20 with g++ 12: every ``.cpp``, ``.cc`` and ``.cxx`` compiled into one program."""

from __future__ import annotations

from sandbox.languages.base import BINARY, NativeProgram, build_binary, image

HELLO = b"""#include <iostream>
#include <string>
int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find("\\"legal_actions\\"") != std::string::npos) {
            std::cout << "{\\"action_index\\": 0}" << std::endl;
        } else if (line.find("\\"start\\"") != std::string::npos) {
            std::cout << "{\\"type\\": \\"ready\\"}" << std::endl;
        } else if (line.find("\\"end\\"") != std::string::npos) {
            return 0;
        }
    }
}
"""

LANGUAGE = NativeProgram(
    key="cpp",
    name="C++20 (g++ 12)",
    source="main.cpp",
    suffixes=(".cpp", ".cc", ".cxx", ".hpp", ".h"),
    order=30,
    hello=HELLO,
    broken=b"int main() { return undefined_name; }\n",
    broken_says="undefined_name\u2019 was not declared",
    build=build_binary(
        f"g++ -std=c++20 -O2 -pipe -o {BINARY} $(find . -name '*.cpp' -o -name '*.cc' "
        "-o -name '*.cxx')"
    ),
    build_image=image("cpp"),
    host_tools=("g++",),
)
