package org.libpto;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Fails when include/pto_c.h declares a function that the Java layer neither
 * calls (PtoNative.NAME) nor lists below with the reason, so a new C function
 * cannot be left out of the binding unnoticed.
 */
class HeaderCoverageTest {
    static final Map<String, String> NOT_CALLED = Map.ofEntries(
            Map.entry("pto_last_error", "read by the JNI wrapper of every failing call, in PtoException.detail()"),
            Map.entry("pto_program_check", "checks a module of several kernels without an entry, for pto-run --check; a program here is made to run (created with an entry)"),
            Map.entry("pto_tile_data", "tile storage is reached through ByteBuffers (Tile.asByteBuffer)"),
            Map.entry("pto_buffer_data", "buffer storage is reached through ByteBuffers, never a raw address"),
            Map.entry("pto_tile_write", "typed forms pto_tile_write_i8/_i16/_i32 (pto.i) and pto_tile_write_f32"),
            Map.entry("pto_tile_read", "typed forms pto_tile_read_i8/_i16/_i32 (pto.i) and pto_tile_read_f32"),
            Map.entry("pto_buffer_create", "Buffer.allocate makes a direct ByteBuffer and wraps it (JVM-counted memory)"),
            Map.entry("pto_buffer_size", "Buffer.size() is its ByteBuffer's capacity"),
            Map.entry("pto_tile_buffer", "a Tile keeps its ByteBuffer itself (Tile.isPlaced)"),
            Map.entry("pto_profile_string", "Profile is a Java enum whose names are the C names"),
            Map.entry("pto_set_warning_handler", "board-mode warnings go to stderr: a Java callback would be called from libpto's pool threads"));

    @Test
    void everyHeaderFunctionIsCalled() throws IOException {
        Path base = Paths.get(System.getProperty("basedir", System.getProperty("user.dir")));
        Path header = base.resolve("../../include/pto_c.h").normalize();
        assumeTrue(Files.isRegularFile(header), "include/pto_c.h not beside the binding");
        StringBuilder src = new StringBuilder();
        try (Stream<Path> files = Files.list(base.resolve("src/main/java/org/libpto"))) {
            for (Path f : (Iterable<Path>) files::iterator) {
                src.append(Files.readString(f));
            }
        }
        Matcher m = Pattern.compile("PTO_API[^;]*?\\b(pto_\\w+)\\s*\\(").matcher(Files.readString(header));
        List<String> missing = new ArrayList<>();
        int count = 0;
        while (m.find()) {
            count++;
            String name = m.group(1);
            boolean called = src.indexOf("PtoNative." + name + "(") >= 0 || src.indexOf("PtoNative::" + name) >= 0;
            if (called == NOT_CALLED.containsKey(name)) {
                missing.add(name + (called ? " (called, yet listed as not called)" : ""));
            }
        }
        assertTrue(count >= 40, "found only " + count + " declarations");
        assertTrue(missing.isEmpty(), "in pto_c.h but not called by the Java binding: " + missing);
    }
}
