package org.libpto;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A PTO program: assembly text parsed and verified once, then run any number
 * of times, from any threads (a Program is immutable).
 *
 * <pre>{@code
 * try (Program prog = new Program(text, "prelu.pto", null);
 *      Program.Arguments args = prog.arguments()) {
 *     args.set("x", x).set("s", s).set("y", y).set("n", 8); // direct ByteBuffers, zero-copy
 *     prog.launch(3, args);
 * }
 * }</pre>
 *
 * <p>Arguments are bound by name or position: global memory (a pointer
 * parameter) as a direct {@link ByteBuffer}, read and written in place during
 * the run; integers as {@code long}, floats as {@code double}; tiles as a
 * {@link Tile}. For a snippet, {@link #run} creates a tile of the declared
 * shape (with the declared valid region where the type gives a static one,
 * e.g. {@code valid=8x8}) for every written tile parameter left unbound and
 * returns them by name; a Tile the caller binds to a written parameter receives the result
 * itself.
 *
 * <p>{@link #close()} frees the program (a {@link Cleaner} does for one never
 * closed); afterwards every method that reaches libpto throws
 * {@link PtoException} with {@link Status#NULL_ARGUMENT}.
 */
public final class Program implements AutoCloseable {
    /** What a parameter is (the C {@code pto_param_kind}). */
    public enum Kind {
        // gen-enums:begin (the constants: tools/gen-enums.py)
        /** !pto.ptr&lt;T&gt;: global memory, an array of dtype T. */
        POINTER(pto_param_kind.PTO_PARAM_POINTER),
        /** Index, i1, i8, i16, i32, i64 scalar. */
        INT(pto_param_kind.PTO_PARAM_INT),
        /** f16, bf16, f32, f64 scalar. */
        FLOAT(pto_param_kind.PTO_PARAM_FLOAT),
        /** A tile (tile-typed func argument, snippet tile). */
        TILE(pto_param_kind.PTO_PARAM_TILE),
        // gen-enums:end
        ;

        private final int code;

        Kind(int code) {
            this.code = code;
        }

        /** The C value. */
        public int code() {
            return code;
        }

        static Kind of(int code) {
            for (Kind k : values()) {
                if (k.code == code) {
                    return k;
                }
            }
            throw new PtoException(Status.INVALID_ARGUMENT, "unknown parameter kind " + code);
        }
    }

    /** The C access flags PTO_PARAM_READ and PTO_PARAM_WRITE. */
    private static final long READ = PtoNative.pto_java_param_read();
    private static final long WRITE = PtoNative.pto_java_param_write();

    /** One parameter of the program. */
    public static final class Parameter {
        private final int index;
        private final String name;
        private final Kind kind;
        private final DType dtype;
        private final int rows;
        private final int cols;
        private final int validRows;
        private final int validCols;
        private final int access;

        Parameter(int index, String name, Kind kind, DType dtype, int rows, int cols, int validRows, int validCols,
                int access) {
            this.index = index;
            this.name = name;
            this.kind = kind;
            this.dtype = dtype;
            this.rows = rows;
            this.cols = cols;
            this.validRows = validRows;
            this.validCols = validCols;
            this.access = access;
        }

        /** Position in the program's parameter list. */
        public int index() {
            return index;
        }

        /** The name without {@code %}. */
        public String name() {
            return name;
        }

        public Kind kind() {
            return kind;
        }

        /** Element type of a pointer or tile; for scalars, see {@code pto_program_param_dtype}. */
        public DType dtype() {
            return dtype;
        }

        /** A tile's declared rows; 0 for other kinds. */
        public int rows() {
            return rows;
        }

        /** A tile's declared columns; 0 for other kinds. */
        public int cols() {
            return cols;
        }

        /**
         * A tile's declared valid rows: the type's static value, or -1 where
         * the type says {@code ?} (the bound tile's region is then taken); 0
         * for other kinds.
         */
        public int validRows() {
            return validRows;
        }

        /** A tile's declared valid columns: static, or -1 for {@code ?}; 0 for other kinds. */
        public int validCols() {
            return validCols;
        }

        /** Whether both dimensions of a tile's declared valid region are static (not -1). */
        public boolean hasStaticValid() {
            return validRows >= 0 && validCols >= 0;
        }

        /** Whether the program reads the value as bound. */
        public boolean reads() {
            return (access & READ) != 0;
        }

        /** Whether the program writes the parameter. */
        public boolean writes() {
            return (access & WRITE) != 0;
        }

        @Override
        public String toString() {
            String shape = "";
            if (kind == Kind.TILE) {
                shape = " " + rows + "x" + cols;
                if (validRows != rows || validCols != cols) {
                    shape += " valid=" + (validRows < 0 ? "?" : validRows) + "x" + (validCols < 0 ? "?" : validCols);
                }
            }
            return "%" + name + ": " + kind + " " + dtype + shape + (reads() ? " read" : "") + (writes() ? " write" : "");
        }
    }

    private final NativeHandle handle;
    private final String sourceName;
    private final Profile profile;
    private final List<Parameter> parameters;

    /** Parses and verifies {@code text} under the calling thread's profile, named {@code "<string>"}. */
    public Program(String text) {
        this(text, null, null);
    }

    /** Parses and verifies {@code text}, named {@code sourceName} in diagnostics. */
    public Program(String text, String sourceName) {
        this(text, sourceName, null);
    }

    /**
     * Parses and verifies {@code text}.
     *
     * @param sourceName names the text in diagnostics; null for {@code "<string>"}
     * @param profile the profile to verify and run under; null for the calling
     *     thread's (a module's {@code pto.target_arch} applies when present)
     * @throws ProgramException for text that does not parse or verify, with
     *     the status the C API gives for the same mistake and the position
     * @throws PtoException OUT_OF_MEMORY
     */
    public Program(String text, String sourceName, Profile profile) {
        this(text, sourceName, null, profile);
    }

    /**
     * Parses and verifies {@code text}, a module whose entry function is
     * chosen by name. Every other function of the module is verified too.
     *
     * @param sourceName names the text in diagnostics; null for {@code "<string>"}
     * @param entry the name of the entry {@code func.func} (with or without
     *     {@code @}); null or {@code ""} for the default choice: the function
     *     marked {@code pto.entry} (or {@code pto.kernel}, or with a
     *     {@code pto.kernel_kind} attribute), else the module's only public
     *     function, else its only function
     * @param profile the profile to verify and run under; null for the calling
     *     thread's (a module's {@code pto.target_arch} applies when present)
     * @throws ProgramException for text that does not parse or verify, with
     *     the status the C API gives for the same mistake and the position;
     *     INVALID_ARGUMENT if no function is called {@code entry}, or, with
     *     no entry, if the module marks several entries or has several
     *     public functions and marks none
     * @throws PtoException OUT_OF_MEMORY
     */
    public Program(String text, String sourceName, String entry, Profile profile) {
        if (text == null) {
            throw new PtoException(Status.NULL_ARGUMENT, "Program: text is null");
        }
        this.sourceName = sourceName == null ? "<string>" : sourceName;
        long[] out = new long[1];
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        try {
            if (profile == null) {
                create(bytes, this.sourceName, entry, out);
            } else {
                try (Profile.Scope scope = profile.activate()) {
                    create(bytes, this.sourceName, entry, out);
                }
            }
        } catch (PtoException e) {
            throw ProgramException.of(e, this.sourceName);
        }
        long p = out[0];
        this.handle = NativeHandle.register(this, p, 0, PtoNative::pto_program_destroy);
        this.profile = profileOf(PtoNative.pto_program_profile(p));
        int n = Math.toIntExact(PtoNative.pto_program_param_count(p));
        List<Parameter> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Kind kind = Kind.of(PtoNative.pto_program_param_kind(p, i));
            list.add(new Parameter(i, PtoNative.pto_program_param_name(p, i), kind,
                    DType.of(PtoNative.pto_program_param_dtype(p, i)),
                    (int) PtoNative.pto_program_param_rows(p, i), (int) PtoNative.pto_program_param_cols(p, i),
                    (int) PtoNative.pto_program_param_valid_rows(p, i),
                    (int) PtoNative.pto_program_param_valid_cols(p, i),
                    (int) PtoNative.pto_program_param_access(p, i)));
        }
        this.parameters = Collections.unmodifiableList(list);
    }

    private static void create(byte[] text, String sourceName, String entry, long[] out) {
        if (entry == null || entry.isEmpty()) {
            PtoNative.pto_program_create(text, sourceName, out);
        } else {
            PtoNative.pto_program_create_entry(text, sourceName, entry, out);
        }
    }

    private static Profile profileOf(int code) {
        for (Profile p : Profile.values()) {
            if (p.code() == code) {
                return p;
            }
        }
        return Profile.HOST;
    }

    /** The source name used in diagnostics. */
    public String sourceName() {
        return sourceName;
    }

    /** The profile the program was verified under and runs under. */
    public Profile profile() {
        return profile;
    }

    /**
     * A listing of the verified program, in lines of text: the module's
     * functions with their parameters (the entry marked {@code (entry)}), the
     * unified buffer's use and every tile's place in it, as
     * {@code pto-run --check} prints it.
     *
     * @throws PtoException NULL_ARGUMENT once the program is closed
     */
    public String describe() {
        try {
            return PtoNative.pto_program_describe(pointer("Program.describe"));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** The parameters in order (unmodifiable). */
    public List<Parameter> parameters() {
        return parameters;
    }

    /**
     * The index of the parameter called {@code name} (with or without {@code %}).
     *
     * @throws PtoException INVALID_ARGUMENT if there is none
     */
    public int indexOf(String name) {
        if (name == null) {
            throw new PtoException(Status.NULL_ARGUMENT, "Program.indexOf: name is null");
        }
        try {
            long[] index = new long[1];
            PtoNative.pto_program_param_find(pointer("Program.indexOf"), name, index);
            return (int) index[0];
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** The parameter called {@code name}; see {@link #indexOf}. */
    public Parameter parameter(String name) {
        return parameters.get(indexOf(name));
    }

    /** A new, empty argument set for this program; close it when done. */
    public Arguments arguments() {
        return new Arguments(this);
    }

    /** Runs the program once, as block 0 of 1: {@code launch(1, args)}. */
    public Map<String, Tile> run(Arguments args) {
        return launch(1, args);
    }

    /**
     * Runs the program for block ids 0..blocks-1 concurrently and waits.
     * Each block has its own unified buffer; global memory is shared.
     *
     * @return with one block, the tiles created for the written tile
     *     parameters left unbound, by name, in parameter order (the caller
     *     closes them); empty otherwise
     * @throws PtoException INVALID_ARGUMENT for arguments made for another
     *     program, blocks outside [1, 65536], a parameter the program reads
     *     that is not bound, or blocks &gt; 1 with a bound written tile
     * @throws ProgramException for a run-time fault of an instruction
     */
    public Map<String, Tile> launch(int blocks, Arguments args) {
        if (args == null) {
            throw new PtoException(Status.NULL_ARGUMENT, "Program.launch: args is null");
        }
        if (blocks < 0) {
            throw new PtoException(Status.INVALID_ARGUMENT, "Program.launch: blocks is negative");
        }
        Map<String, Tile> created = new LinkedHashMap<>();
        long a = args.pointer("Program.launch");
        boolean ok = false;
        try {
            long p = pointer("Program.launch");
            if (blocks == 1 && args.program == this) {
                for (Parameter prm : parameters) {
                    if (prm.kind == Kind.TILE && prm.writes() && !prm.reads() && args.bound[prm.index] == null) {
                        Tile t = new Tile(prm.dtype, prm.rows, prm.cols);
                        created.put(prm.name, t);
                        if (prm.validRows >= 0 || prm.validCols >= 0) {
                            // pto_args_set_tile requires the declared static region.
                            t.setValid(prm.validRows >= 0 ? prm.validRows : prm.rows,
                                    prm.validCols >= 0 ? prm.validCols : prm.cols);
                        }
                        PtoNative.pto_args_set_tile(a, prm.index, t.handle("Program.launch", prm.name));
                    }
                }
            }
            try {
                if (blocks == 1) {
                    PtoNative.pto_program_run(p, a);
                } else {
                    PtoNative.pto_program_launch(p, blocks, a);
                }
            } catch (PtoException e) {
                throw ProgramException.of(e, sourceName);
            }
            ok = true;
            return created;
        } finally {
            if (!created.isEmpty()) {
                args.unbindCreated();
            }
            if (!ok) {
                created.values().forEach(Tile::close);
            }
            Reference.reachabilityFence(this);
            Reference.reachabilityFence(args);
        }
    }

    long pointer(String op) {
        long p = handle.pointer();
        if (p == 0) {
            throw new PtoException(Status.NULL_ARGUMENT, op + ": the program is closed");
        }
        return p;
    }

    /** Frees the program; closing again does nothing. */
    @Override
    public void close() {
        handle.close();
    }

    /** Whether {@link #close()} has been called. */
    public boolean isClosed() {
        return handle.isClosed();
    }

    @Override
    public String toString() {
        return "Program[" + sourceName + " " + profile + " " + parameters + "]";
    }

    /**
     * The values bound to one program's parameters (the C {@code pto_args}).
     * Setters return {@code this} for chaining. Bound ByteBuffers and Tiles
     * are held (kept reachable) until rebound or the set is closed; the
     * program reads and writes them at each run, not when bound. Not for
     * use by several threads at once.
     */
    public static final class Arguments implements AutoCloseable {
        private final Program program;
        private final NativeHandle handle;
        /** What each parameter is bound to (ByteBuffer, Tile, Long, Double), to keep it reachable. */
        private final Object[] bound;

        private Arguments(Program program) {
            long[] out = new long[1];
            try {
                PtoNative.pto_args_create(program.pointer("Program.arguments"), out);
            } finally {
                Reference.reachabilityFence(program);
            }
            this.program = program;
            this.handle = NativeHandle.register(this, out[0], 0, PtoNative::pto_args_destroy);
            this.bound = new Object[program.parameters.size()];
        }

        long pointer(String op) {
            long p = handle.pointer();
            if (p == 0) {
                throw new PtoException(Status.NULL_ARGUMENT, op + ": the arguments are closed");
            }
            // The argument set reads its program's parameters.
            program.pointer(op);
            return p;
        }

        private int index(String name) {
            return program.indexOf(name);
        }

        private void keep(int index, Object value) {
            if (index >= 0 && index < bound.length) {
                bound[index] = value;
            }
        }

        /**
         * Binds global memory: {@code memory}'s bytes from its position to
         * its limit, zero-copy, in native byte order (the program sees the
         * bytes as they are).
         *
         * @throws IllegalArgumentException if {@code memory} is not direct
         * @throws PtoException INVALID_ARGUMENT for a parameter of another
         *     kind, a size that is not a multiple of the element size, or a
         *     read-only buffer for a parameter the program writes
         */
        public Arguments set(int index, ByteBuffer memory) {
            if (memory == null) {
                throw new PtoException(Status.NULL_ARGUMENT, "Program.Arguments.set: memory is null");
            }
            if (!memory.isDirect()) {
                throw new IllegalArgumentException("Program.Arguments.set: the ByteBuffer must be direct (ByteBuffer.allocateDirect)");
            }
            if (memory.isReadOnly() && index >= 0 && index < bound.length && program.parameters.get(index).writes()) {
                throw new PtoException(Status.INVALID_ARGUMENT, "Program.Arguments.set: parameter %"
                        + program.parameters.get(index).name() + " is written, the ByteBuffer is read-only");
            }
            ByteBuffer view = memory.slice().order(ByteOrder.nativeOrder());
            try {
                PtoNative.pto_args_set_pointer(pointer("Program.Arguments.set"), index, view);
                keep(index, view);
                return this;
            } finally {
                Reference.reachabilityFence(this);
            }
        }

        /** Binds global memory by name; see {@link #set(int, ByteBuffer)}. */
        public Arguments set(String name, ByteBuffer memory) {
            return set(index(name), memory);
        }

        /**
         * Binds an integer parameter.
         *
         * @throws PtoException OUT_OF_RANGE for a value the declared type cannot hold
         */
        public Arguments set(int index, long value) {
            try {
                PtoNative.pto_args_set_int(pointer("Program.Arguments.set"), index, value);
                keep(index, value);
                return this;
            } finally {
                Reference.reachabilityFence(this);
            }
        }

        /** Binds an integer parameter by name. */
        public Arguments set(String name, long value) {
            return set(index(name), value);
        }

        /** Binds a float parameter (rounded to nearest even to the declared type). */
        public Arguments set(int index, double value) {
            try {
                PtoNative.pto_args_set_float(pointer("Program.Arguments.set"), index, value);
                keep(index, value);
                return this;
            } finally {
                Reference.reachabilityFence(this);
            }
        }

        /** Binds a float parameter by name. */
        public Arguments set(String name, double value) {
            return set(index(name), value);
        }

        /**
         * Binds a tile parameter (null unbinds). The program reads the tile
         * at each run if it reads the parameter and writes its result into
         * it if it writes the parameter.
         *
         * @throws PtoException DTYPE_MISMATCH or SHAPE_MISMATCH for a tile
         *     that differs from the declaration
         */
        public Arguments set(int index, Tile tile) {
            try {
                long t = tile == null ? 0 : tile.handle("Program.Arguments.set", "the");
                PtoNative.pto_args_set_tile(pointer("Program.Arguments.set"), index, t);
                keep(index, tile);
                return this;
            } finally {
                Reference.reachabilityFence(this);
                Reference.reachabilityFence(tile);
            }
        }

        /** Binds a tile parameter by name. */
        public Arguments set(String name, Tile tile) {
            return set(index(name), tile);
        }

        /** Unbinds the tiles that launch created and bound for one run (the tile parameters bound to nothing here). */
        void unbindCreated() {
            long p = handle.pointer();
            if (p == 0) {
                return;
            }
            for (Parameter prm : program.parameters) {
                if (prm.kind == Kind.TILE && bound[prm.index] == null) {
                    PtoNative.pto_args_set_tile(p, prm.index, 0);
                }
            }
        }

        /** Frees the argument set (never the memory or tiles bound in it). */
        @Override
        public void close() {
            handle.close();
            java.util.Arrays.fill(bound, null);
        }
    }
}
