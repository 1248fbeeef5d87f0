// Hostile bot: at its first move, fork()s without end (children fork too), reports how many
// children it made before the kernel refused, then never answers.
#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <unistd.h>

static void attack() {
    int made = 0;
    bool child = false;
    for (;;) {
        pid_t pid = fork();
        if (pid == 0) {
            child = true;  // children bomb too, silently
        } else if (pid > 0) {
            ++made;
        } else {
            if (!child) {
                std::cerr << "fork refused after " << made << ": " << std::strerror(errno)
                          << std::endl;
                child = true;
            }
            usleep(10000);
        }
    }
}

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find("\"legal_actions\"") != std::string::npos) {
            attack();
        } else if (line.find("\"start\"") != std::string::npos) {
            std::cout << "{\"type\": \"ready\"}" << std::endl;
        } else if (line.find("\"end\"") != std::string::npos) {
            return 0;
        }
    }
}
