/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.common.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The version of a Debezium change event, in the order its source committed it: an SCN (the commit
 * position) and a sequence (the change's place among the changes sharing that commit position).
 * docs/debezium.md explains each connector's rule; in short:
 *
 * <ul>
 *   <li>PostgreSQL: {@code source.sequence} is {@code [lastCommitLsn, lsn]}. A change's own {@code lsn}
 *       does not follow commit order (a transaction can write before another that commits first), but
 *       {@code lastCommitLsn}, the end of the commit Debezium passed last, does: it grows from one
 *       transaction to the next and is the same for all changes of one. SCN = lastCommitLsn (the
 *       change's lsn where it is null: the first transaction a connector streams), sequence = lsn.
 *   <li>Oracle: SCN = {@code source.commit_scn}, sequence = {@code source.txSeq} (else the change's
 *       {@code scn}); without a commit SCN (old connectors) the change's own {@code scn}.
 *   <li>MySQL and MariaDB: the binlog position (file, position, row) packed into the SCN; binlog events
 *       are written in commit order.
 *   <li>Initial snapshot reads ({@code op} {@code r}) of PostgreSQL rank below every streamed change:
 *       they carry the slot's start, not a commit position that could be placed between two commits.
 *   <li>Incremental snapshot reads ({@code source.snapshot} {@code incremental}) rank where their
 *       window closed: Debezium emits a chunk once its high watermark passes, having dropped from it
 *       every key the stream changed inside the window, so the row is the table's as of that point
 *       (DBLog's watermarks). PostgreSQL: SCN = the sequence's lastCommitLsn, sequence 0 (below the
 *       changes of the transaction delivered next, which share that lastCommitLsn). Oracle: the
 *       commit SCN, sequence 0. MySQL: the binlog position, as for any event.
 * </ul>
 */
public final class DebeziumVersion {

    /** SCN then sequence, both never negative. */
    public record Position(long scn, long seq) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern BINLOG_FILE = Pattern.compile(".*\\.(\\d+)");

    private DebeziumVersion() {}

    /**
     * The position of {@code envelope} (whose {@code source} block is {@code source}) as {@code
     * versionField} says, or a Rejection.
     */
    /** What an event is: a streamed change, a read of the initial snapshot, or one of an incremental snapshot. */
    enum Kind {
        CHANGE,
        INITIAL_READ,
        INCREMENTAL_READ;

        /** By {@code op} and {@code source.snapshot}. */
        static Kind of(String opCode, JsonNode source) {
            if (!opCode.equals("r")) {
                return CHANGE;
            }
            return source.path("snapshot").asText("").equals("incremental") ? INCREMENTAL_READ : INITIAL_READ;
        }
    }

    static Object of(String versionField, Kind kind, JsonNode envelope, JsonNode source) {
        String field = versionField;
        if (field.equals(DebeziumDecoder.AUTO)) {
            String connector = connector(source);
            field = switch (connector) {
                case "oracle" -> "oracle";
                case "postgresql" -> "postgresql";
                case "mysql", "mariadb" -> DebeziumDecoder.MYSQL_BINLOG;
                default -> null;
            };
            if (field == null) {
                return Rejection.of(
                        Rejection.Reason.BAD_SCN,
                        (connector.isEmpty()
                                        ? "no source.connector, and no lsn, scn or binlog file and pos to tell it by"
                                        : "connector '" + connector + "' has no default version")
                                + ": set cdc.debezium.version-field to the source field that orders its changes");
            }
        }
        return switch (field) {
            case DebeziumDecoder.MYSQL_BINLOG -> binlogPosition(source);
            case "postgresql" -> postgres(source, kind);
            case "oracle" -> oracle(source, kind);
            default -> named(field, envelope);
        };
    }

    /**
     * The position of a streamed (not snapshot) event, by its connector: what the bootstrap reads from
     * its watermark. Throws IllegalArgumentException with the decoder's reason when it has none.
     */
    public static Position ofStreamed(JsonNode envelope) {
        return orThrow(of(DebeziumDecoder.AUTO, Kind.CHANGE, envelope, envelope.path("source")));
    }

    /** The version of binlog position {@code file}:{@code pos}, row 0, as a change there would carry it. */
    public static Position ofBinlog(String file, long pos) {
        return orThrow(binlogPosition(JSON.createObjectNode().put("file", file).put("pos", pos)));
    }

    /** A position, or the Rejection's reason as an IllegalArgumentException. */
    private static Position orThrow(Object positionOrRejection) {
        if (positionOrRejection instanceof Rejection r) {
            throw new IllegalArgumentException(r.detail());
        }
        return (Position) positionOrRejection;
    }

    /** {@code source.connector}, or the connector its fields show (events of Debezium 0.x have none). */
    private static String connector(JsonNode source) {
        String named = source.path("connector").asText("");
        if (!named.isEmpty()) {
            return named;
        }
        if (source.has("lsn")) {
            return "postgresql";
        }
        if (source.has("scn")) {
            return "oracle";
        }
        return source.has("file") && source.has("pos") ? "mysql" : "";
    }

    private static Object postgres(JsonNode source, Kind kind) {
        Long lsn = wholeNumber(source.path("lsn"));
        if (kind == Kind.INITIAL_READ) {
            return new Position(0, lsn == null ? 0 : lsn);
        }
        JsonNode sequence = source.path("sequence");
        if ((sequence.isMissingNode() || sequence.isNull()) && kind == Kind.CHANGE) {
            if (lsn == null) {
                return Rejection.of(
                        Rejection.Reason.BAD_SCN,
                        "a PostgreSQL change needs a whole-number source.lsn, got " + shown(source.path("lsn")));
            }
            return new Position(lsn, lsn); // connectors before source.sequence existed: the change's position only
        }
        Long lastCommit = null;
        Long own = null;
        try {
            JsonNode pair = sequence.isTextual() ? JSON.readTree(sequence.asText()) : sequence;
            if (pair.isArray() && pair.size() == 2) {
                lastCommit = wholeNumberOrZero(pair.get(0));
                own = lsn != null ? lsn : wholeNumber(pair.get(1));
            }
        } catch (IOException e) {
            lastCommit = null;
        }
        if (lastCommit == null || own == null) {
            return Rejection.of(
                    Rejection.Reason.BAD_SCN,
                    "source.sequence must be [lastCommitLsn, lsn] (numbers or null, lsn set), got " + shown(sequence));
        }
        if (kind == Kind.INCREMENTAL_READ) {
            // the window closed after every commit up to lastCommitLsn; the transaction delivered next
            // carries that same lastCommitLsn and an lsn above 0, so seq 0 keeps the read below it
            return new Position(lastCommit == 0 ? own : lastCommit, 0);
        }
        return new Position(lastCommit == 0 ? own : lastCommit, own);
    }

    private static Object oracle(JsonNode source, Kind kind) {
        Long scn = wholeNumber(source.path("scn"));
        if (scn == null) {
            return Rejection.of(
                    Rejection.Reason.BAD_SCN,
                    "source.scn must be a whole number (the version), got " + shown(source.path("scn")));
        }
        Long commit = wholeNumber(source.path("commit_scn"));
        if (kind == Kind.INITIAL_READ || commit == null) {
            return new Position(scn, 0);
        }
        if (kind == Kind.INCREMENTAL_READ) {
            return new Position(commit, 0); // where the window closed: below the changes committed after it
        }
        Long txSeq = wholeNumber(source.path("txSeq"));
        return new Position(commit, txSeq != null && txSeq > 0 ? txSeq : scn);
    }

    private static Object named(String field, JsonNode envelope) {
        JsonNode v = envelope;
        for (String part : field.split("\\.")) {
            v = v.path(part);
        }
        Long n = wholeNumber(v);
        return n != null
                ? new Position(n, 0)
                : Rejection.of(
                        Rejection.Reason.BAD_SCN, field + " must be a whole number (the version), got " + shown(v));
    }

    /** MySQL's binlog position: file number, position in the file and row in the event, packed in 20 + 32 + 11 bits. */
    private static Object binlogPosition(JsonNode source) {
        Matcher file = BINLOG_FILE.matcher(source.path("file").asText(""));
        Long pos = wholeNumber(source.path("pos"));
        Long row = source.has("row") ? wholeNumber(source.get("row")) : Long.valueOf(0);
        if (!file.matches() || pos == null || row == null) {
            return Rejection.of(
                    Rejection.Reason.BAD_SCN,
                    "a MySQL binlog position needs source.file (name.NNNNNN) and source.pos, got file "
                            + shown(source.path("file")) + ", pos " + shown(source.path("pos")));
        }
        long fileNumber = Long.parseLong(file.group(1));
        if (fileNumber >= 1L << 20 || pos >= 1L << 32 || row >= 1L << 11) {
            return Rejection.of(
                    Rejection.Reason.BAD_SCN,
                    "binlog position " + source.path("file").asText() + ":" + pos + " row " + row
                            + " does not fit a version (file number < 2^20, pos < 2^32, row < 2^11)");
        }
        return new Position(fileNumber << 43 | pos << 11 | row, 0);
    }

    /** A whole number >= 0 from a JSON number or numeric string; null otherwise. */
    static Long wholeNumber(JsonNode v) {
        if (v == null) {
            return null;
        }
        if (v.isIntegralNumber() && v.canConvertToLong() && v.asLong() >= 0) {
            return v.asLong();
        }
        if (v.isTextual() && v.asText().matches("\\d{1,30}")) {
            BigInteger b = new BigInteger(v.asText());
            return b.bitLength() < 64 ? b.longValue() : null;
        }
        return null;
    }

    /** As {@link #wholeNumber}, with JSON null as 0 (no commit passed yet). */
    private static Long wholeNumberOrZero(JsonNode v) {
        return v == null || v.isNull() ? Long.valueOf(0) : wholeNumber(v);
    }

    static String shown(JsonNode v) {
        return v.isMissingNode() ? "nothing" : v.toString();
    }
}
