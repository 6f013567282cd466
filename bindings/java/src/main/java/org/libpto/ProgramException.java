package org.libpto;

/**
 * A program's diagnostic: thrown by {@link Program#Program(String, String, Profile)}
 * for text that does not parse or verify, and by {@link Program#run} and
 * {@link Program#launch} for a run-time fault of an instruction. The
 * {@link #detail()} reads {@code "NAME:LINE:COL: error: SENTENCE"};
 * {@link #line()} and {@link #column()} are LINE and COL (1-based).
 * Other failures of those calls (an unknown parameter name, a missing
 * argument) are plain {@link PtoException}s.
 */
public class ProgramException extends PtoException {
    private static final long serialVersionUID = 1L;

    private final String sourceName;
    private final int line;
    private final int column;

    ProgramException(Status status, String detail, String sourceName, int line, int column) {
        super(status, detail);
        this.sourceName = sourceName;
        this.line = line;
        this.column = column;
    }

    /**
     * {@code e} as a ProgramException when its detail is a diagnostic of the
     * text called {@code sourceName}, else {@code e} itself.
     */
    static PtoException of(PtoException e, String sourceName) {
        String d = e.detail();
        String prefix = sourceName + ":";
        if (e instanceof ProgramException || !d.startsWith(prefix)) {
            return e;
        }
        String[] parts = d.substring(prefix.length()).split(":", 3);
        if (parts.length < 3 || !parts[2].startsWith(" error: ")) {
            return e;
        }
        try {
            int line = Integer.parseInt(parts[0]);
            int column = Integer.parseInt(parts[1]);
            if (line < 1 || column < 1) {
                return e;
            }
            ProgramException p = new ProgramException(e.status(), d, sourceName, line, column);
            p.setStackTrace(e.getStackTrace());
            return p;
        } catch (NumberFormatException notANumber) {
            return e;
        }
    }

    /** The source name the program was created with ({@code "<string>"} by default). */
    public String sourceName() {
        return sourceName;
    }

    /** 1-based line of the offending token or instruction. */
    public int line() {
        return line;
    }

    /** 1-based column of the offending token or instruction. */
    public int column() {
        return column;
    }
}
