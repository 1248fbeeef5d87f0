// A starter bot for Meeple Arena (bot protocol version 1), in C++20. Standard library only.
// Game: any Meeple Arena game
//
// The referee starts this program once per match and talks to it over stdin/stdout, one JSON
// object per line. Whatever you print to stdout must be protocol messages; write debugging
// output to stderr (std::cerr): it is kept with the match, for you to read.
//
// As written, it plays a random legal move (seeded by the match id, so a replay repeats it).
// Put your own logic in choose() below. The small JSON reader at the top (class Json) is
// enough to read every message; it keeps numbers as double and as their original text.
//
// Build and run by hand:  g++ -std=c++20 -O2 -o bot main.cpp && ./bot

#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

// ---------------------------------------------------------------------------------------------
// A small JSON value and reader. Json::parse(text) gives a Json; read it with is_object(),
// get("key") (nullptr when absent), at(i), size(), as_number(), as_int(), as_string()...
// ---------------------------------------------------------------------------------------------
class Json {
 public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string text;  // a string's value, or a number's original text
  std::vector<Json> items;  // an array's elements
  std::map<std::string, Json> fields;  // an object's members

  static Json parse(const std::string& src) {
    std::size_t pos = 0;
    Json value = read_value(src, pos);
    skip_space(src, pos);
    if (pos != src.size()) throw std::runtime_error("JSON: text after the value");
    return value;
  }

  bool is_null() const { return kind == Kind::Null; }
  bool is_object() const { return kind == Kind::Object; }
  bool is_array() const { return kind == Kind::Array; }
  bool is_string() const { return kind == Kind::String; }
  bool is_number() const { return kind == Kind::Number; }
  std::size_t size() const { return is_array() ? items.size() : fields.size(); }
  const Json& at(std::size_t i) const { return items.at(i); }
  const Json* get(const std::string& key) const {
    auto it = fields.find(key);
    return it == fields.end() ? nullptr : &it->second;
  }
  double as_number() const { return number; }
  long long as_int() const { return static_cast<long long>(number); }
  const std::string& as_string() const { return text; }

 private:
  static void skip_space(const std::string& s, std::size_t& p) {
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\r')) ++p;
  }

  static void expect(const std::string& s, std::size_t& p, const char* word) {
    for (const char* c = word; *c; ++c, ++p) {
      if (p >= s.size() || s[p] != *c) throw std::runtime_error("JSON: bad literal");
    }
  }

  static Json read_value(const std::string& s, std::size_t& p) {
    skip_space(s, p);
    if (p >= s.size()) throw std::runtime_error("JSON: unexpected end");
    Json v;
    char c = s[p];
    if (c == '{') {
      v.kind = Kind::Object;
      ++p;
      skip_space(s, p);
      if (p < s.size() && s[p] == '}') { ++p; return v; }
      while (true) {
        skip_space(s, p);
        if (p >= s.size() || s[p] != '"') throw std::runtime_error("JSON: expected a key");
        std::string key = read_string(s, p);
        skip_space(s, p);
        expect(s, p, ":");
        v.fields[key] = read_value(s, p);
        skip_space(s, p);
        if (p < s.size() && s[p] == ',') { ++p; continue; }
        expect(s, p, "}");
        return v;
      }
    }
    if (c == '[') {
      v.kind = Kind::Array;
      ++p;
      skip_space(s, p);
      if (p < s.size() && s[p] == ']') { ++p; return v; }
      while (true) {
        v.items.push_back(read_value(s, p));
        skip_space(s, p);
        if (p < s.size() && s[p] == ',') { ++p; continue; }
        expect(s, p, "]");
        return v;
      }
    }
    if (c == '"') {
      v.kind = Kind::String;
      v.text = read_string(s, p);
      return v;
    }
    if (c == 't') { expect(s, p, "true"); v.kind = Kind::Bool; v.boolean = true; return v; }
    if (c == 'f') { expect(s, p, "false"); v.kind = Kind::Bool; return v; }
    if (c == 'n') { expect(s, p, "null"); return v; }
    std::size_t start = p;
    while (p < s.size() && std::string("+-0123456789.eE").find(s[p]) != std::string::npos) ++p;
    if (start == p) throw std::runtime_error("JSON: unexpected character");
    v.kind = Kind::Number;
    v.text = s.substr(start, p - start);
    v.number = std::stod(v.text);
    return v;
  }

  static void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  static std::string read_string(const std::string& s, std::size_t& p) {
    std::string out;
    ++p;  // the opening quote
    while (p < s.size() && s[p] != '"') {
      char c = s[p++];
      if (c != '\\') { out += c; continue; }
      if (p >= s.size()) break;
      char e = s[p++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          std::uint32_t cp = std::stoul(s.substr(p, 4), nullptr, 16);
          p += 4;
          // a surrogate pair: \ud83d\ude00
          if (cp >= 0xD800 && cp < 0xDC00 && s.compare(p, 2, "\\u") == 0) {
            std::uint32_t low = std::stoul(s.substr(p + 2, 4), nullptr, 16);
            if (low >= 0xDC00 && low < 0xE000) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
              p += 6;
            }
          }
          append_utf8(out, cp);
          break;
        }
        default: out += e;  // \" \\ \/
      }
    }
    if (p >= s.size()) throw std::runtime_error("JSON: unterminated string");
    ++p;  // the closing quote
    return out;
  }
};

// ---------------------------------------------------------------------------------------------
// The bot.
// ---------------------------------------------------------------------------------------------

// One JSON object on one line, flushed at once (the referee waits for the newline).
void send(const std::string& line) { std::cout << line << std::endl; }

std::mt19937_64 rng;

// Return the index of the action to play in legal_actions.
//
// observation is everything your seat may know now (the game's rules page documents its
// fields); legal_actions lists every legal choice, never empty; start is the "start" message
// (game, seat, players, options, time). For example:
//   const Json* round = observation.get("round");        // nullptr if the game has none
//   if (round && round->is_number()) { long long r = round->as_int(); }
//   const Json& first = legal_actions.at(0);              // an action, e.g. {"type": "take"}
//   if (const Json* t = first.get("type")) std::cerr << t->as_string() << "\n";
std::size_t choose(const Json& observation, const Json& legal_actions, const Json& start) {
  (void)observation;
  (void)start;
  std::uniform_int_distribution<std::size_t> pick(0, legal_actions.size() - 1);
  return pick(rng);
}

int main() {
  std::ios::sync_with_stdio(false);
  Json start;
  std::string line;
  while (std::getline(std::cin, line)) {
    Json message = Json::parse(line);
    const Json* type = message.get("type");
    std::string kind = type ? type->as_string() : "";
    if (kind == "start") {
      // Answer within time.start_ms. Set up anything slow (tables, models) here.
      start = message;
      const Json* id = message.get("match_id");
      rng.seed(std::hash<std::string>{}(id ? id->as_string() : ""));
      send(R"({"type": "ready", "name": "starter-cpp"})");
    } else if (kind == "act") {
      // Answer within time_left_ms (move_ms plus what is left of your time bank), or the
      // referee plays the first legal action for you and ends this program.
      const Json& legal = *message.get("legal_actions");
      std::size_t index = choose(*message.get("observation"), legal, start);
      const std::string& turn = message.get("turn")->text;
      std::cerr << "turn " << turn << ": " << legal.size() << " legal actions, chose " << index
                << std::endl;
      // Echo "turn" so that the referee can tell this answer from a stale one.
      send("{\"action_index\": " + std::to_string(index) + ", \"turn\": " + turn + "}");
    } else if (kind == "end") {
      std::cerr << "the match is over: " << line << std::endl;
      break;  // exit
    }
  }
  return 0;
}
