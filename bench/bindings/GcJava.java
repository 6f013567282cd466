import java.nio.file.Files;
import java.nio.file.Paths;
import org.libpto.DType;
import org.libpto.Tile;

/**
 * Peak memory of a loop that creates tiles and never closes them:
 * bench/bindings/gc.sh runs it with and without the binding's accounting
 * (-Dorg.libpto.gcTriggerBytes=9223372036854775807 turns it off).
 */
public final class GcJava {
    public static void main(String[] args) throws Exception {
        int tiles = Integer.parseInt(args[0]);
        int rows = Integer.parseInt(args[1]);
        int cols = Integer.parseInt(args[2]);
        for (int i = 0; i < tiles; i++) {
            new Tile(DType.FLOAT32, rows, cols);
        }
        String peak = Files.readAllLines(Paths.get("/proc/self/status")).stream()
                .filter(l -> l.startsWith("VmHWM:")).map(l -> l.substring(6).trim()).findFirst().orElse("?");
        System.out.printf("java: %d unclosed %dx%d float32 tiles, gcTriggerBytes %s: peak RSS %s%n", tiles, rows, cols,
                System.getProperty("org.libpto.gcTriggerBytes", "default"), peak);
    }
}
