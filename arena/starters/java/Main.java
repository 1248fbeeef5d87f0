// A starter bot for Meeple Arena (bot protocol version 1), in Java 17. Standard library only.
// Game: any Meeple Arena game
//
// The referee starts this program once per match and talks to it over stdin/stdout, one JSON
// object per line. Whatever you print to stdout must be protocol messages; write debugging
// output to stderr (System.err): it is kept with the match, for you to read.
//
// As written, it plays a random legal move (seeded by the match id, so a replay repeats it).
// Put your own logic in choose() below. The small JSON reader at the bottom (class Json)
// turns a line into Map<String, Object>, List<Object>, String, Double, Boolean or null.
//
// Build and run by hand:  javac -d classes Main.java && java -cp classes Main

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

public class Main {
    static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    static Random random = new Random();

    /** One JSON object on one line, flushed at once (the referee waits for the newline). */
    static void send(String line) {
        OUT.println(line);
        OUT.flush();
    }

    /**
     * Return the index of the action to play in legalActions.
     *
     * <p>observation is everything your seat may know now (the game's rules page documents its
     * fields); legalActions lists every legal choice, never empty; start is the "start" message
     * (game, seat, players, options, time). For example:
     *
     * <pre>
     *   Object round = observation.get("round");             // null if the game has none
     *   if (round instanceof Double r) { int n = r.intValue(); }
     *   Map&lt;String, Object&gt; first = Json.object(legalActions.get(0));  // e.g. {"type": "take"}
     *   System.err.println(first.get("type"));
     * </pre>
     */
    static int choose(Map<String, Object> observation, List<Object> legalActions,
                      Map<String, Object> start) {
        return random.nextInt(legalActions.size());
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(
            new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Map<String, Object> start = new LinkedHashMap<>();
        String line;
        while ((line = in.readLine()) != null) {
            Map<String, Object> message = Json.object(Json.parse(line));
            Object kind = message.get("type");
            if ("start".equals(kind)) {
                // Answer within time.start_ms. Set up anything slow (tables, models) here.
                start = message;
                random = new Random(String.valueOf(message.get("match_id")).hashCode());
                send("{\"type\": \"ready\", \"name\": \"starter-java\"}");
            } else if ("act".equals(kind)) {
                // Answer within time_left_ms (move_ms plus what is left of your time bank), or
                // the referee plays the first legal action for you and ends this program.
                List<Object> legal = Json.array(message.get("legal_actions"));
                int index = choose(Json.object(message.get("observation")), legal, start);
                long turn = ((Double) message.get("turn")).longValue();
                System.err.println("turn " + turn + ": " + legal.size()
                    + " legal actions, chose " + index);
                // Echo "turn" so that the referee can tell this answer from a stale one.
                send("{\"action_index\": " + index + ", \"turn\": " + turn + "}");
            } else if ("end".equals(kind)) {
                System.err.println("the match is over: " + message.get("result"));
                break; // exit
            }
        }
    }
}

/** A small JSON reader: objects are Maps, arrays Lists, numbers Doubles. */
final class Json {
    private final String s;
    private int p;

    private Json(String s) {
        this.s = s;
    }

    static Object parse(String text) {
        Json reader = new Json(text);
        Object value = reader.value();
        reader.space();
        if (reader.p != text.length()) throw new IllegalArgumentException("JSON: text after value");
        return value;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value) {
        return value instanceof Map ? (Map<String, Object>) value : new LinkedHashMap<>();
    }

    @SuppressWarnings("unchecked")
    static List<Object> array(Object value) {
        return value instanceof List ? (List<Object>) value : new ArrayList<>();
    }

    private void space() {
        while (p < s.length() && " \t\r\n".indexOf(s.charAt(p)) >= 0) p++;
    }

    private void expect(String word) {
        if (!s.startsWith(word, p)) throw new IllegalArgumentException("JSON: expected " + word);
        p += word.length();
    }

    private Object value() {
        space();
        if (p >= s.length()) throw new IllegalArgumentException("JSON: unexpected end");
        char c = s.charAt(p);
        if (c == '{') {
            Map<String, Object> map = new LinkedHashMap<>();
            p++;
            space();
            if (s.charAt(p) == '}') { p++; return map; }
            while (true) {
                space();
                String key = string();
                space();
                expect(":");
                map.put(key, value());
                space();
                if (s.charAt(p) == ',') { p++; continue; }
                expect("}");
                return map;
            }
        }
        if (c == '[') {
            List<Object> list = new ArrayList<>();
            p++;
            space();
            if (s.charAt(p) == ']') { p++; return list; }
            while (true) {
                list.add(value());
                space();
                if (s.charAt(p) == ',') { p++; continue; }
                expect("]");
                return list;
            }
        }
        if (c == '"') return string();
        if (c == 't') { expect("true"); return Boolean.TRUE; }
        if (c == 'f') { expect("false"); return Boolean.FALSE; }
        if (c == 'n') { expect("null"); return null; }
        int start = p;
        while (p < s.length() && "+-0123456789.eE".indexOf(s.charAt(p)) >= 0) p++;
        if (start == p) throw new IllegalArgumentException("JSON: unexpected " + c);
        return Double.parseDouble(s.substring(start, p));
    }

    private String string() {
        if (s.charAt(p) != '"') throw new IllegalArgumentException("JSON: expected a string");
        p++;
        StringBuilder out = new StringBuilder();
        while (s.charAt(p) != '"') {
            char c = s.charAt(p++);
            if (c != '\\') { out.append(c); continue; }
            char e = s.charAt(p++);
            switch (e) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                // Java strings are UTF-16, so a surrogate pair is just two \\u escapes in a row.
                case 'u' -> { out.append((char) Integer.parseInt(s.substring(p, p + 4), 16)); p += 4; }
                default -> out.append(e); // \" \\ \/
            }
        }
        p++;
        return out.toString();
    }
}
