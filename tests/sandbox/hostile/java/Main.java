// Hostile bot: at its first move, allocates 1 MiB arrays and keeps them all, until the JVM's
// heap (-Xmx) or the container's memory gives out.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class Main {
    static final List<byte[]> kept = new ArrayList<>();

    static void attack() {
        while (true) {
            byte[] chunk = new byte[1 << 20];
            for (int i = 0; i < chunk.length; i += 4096) chunk[i] = 1;  // touch every page
            kept.add(chunk);
        }
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.contains("\"legal_actions\"")) {
                attack();
            } else if (line.contains("\"start\"")) {
                System.out.println("{\"type\": \"ready\"}");
                System.out.flush();
            } else if (line.contains("\"end\"")) {
                return;
            }
        }
    }
}
