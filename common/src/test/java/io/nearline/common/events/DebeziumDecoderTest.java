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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.version.Version;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class DebeziumDecoderTest {

    private static final DebeziumDecoder BY_ID = new DebeziumDecoder(List.of("id"), "", DebeziumDecoder.AUTO);

    private static byte[] b(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static ChangeEvent ok(Decoded d) {
        assertTrue(d.ok(), () -> "rejected: " + d.rejection() + " skipped: " + d.skipped());
        return d.event();
    }

    private static String payload(ChangeEvent e) {
        return StandardCharsets.UTF_8.decode(e.getPayload().duplicate()).toString();
    }

    @Test
    void oracleUpsertTakesTheAfterImageAndTheScnFromANumericString() {
        ChangeEvent e = ok(
                BY_ID.decode(
                        b("{\"id\":7}"),
                        b(
                                "{\"before\":null,\"after\":{\"id\":7,\"name\":\"Ada\"},\"op\":\"u\",\"ts_ms\":99,"
                                        + "\"source\":{\"connector\":\"oracle\",\"table\":\"CUSTOMERS\",\"scn\":\"1234567\",\"ts_ms\":42}}")));
        assertEquals("7", e.getKey());
        assertEquals(Op.UPSERT, e.getOp());
        assertEquals(1234567L, e.getScn());
        assertEquals("CUSTOMERS", e.getTable());
        assertEquals("{\"id\":7,\"name\":\"Ada\"}", payload(e));
        assertEquals(42L, e.getCommitTimeMillis());
    }

    @Test
    void postgresDeleteIsATombstoneKeyedFromTheBeforeImageWhenTheRecordHasNoKey() {
        ChangeEvent e = ok(BY_ID.decode(
                null,
                b("{\"before\":{\"id\":\"a-1\"},\"after\":null,\"op\":\"d\","
                        + "\"source\":{\"connector\":\"postgresql\",\"lsn\":33227720}}")));
        assertEquals("a-1", e.getKey());
        assertEquals(Op.DELETE, e.getOp());
        assertEquals(33227720L, e.getScn());
        assertNull(e.getPayload());
    }

    @Test
    void theSchemaPayloadWrapperIsTakenOffKeyAndValue() {
        ChangeEvent e = ok(BY_ID.decode(
                b("{\"schema\":{\"type\":\"struct\"},\"payload\":{\"id\":3}}"),
                b("{\"schema\":{\"type\":\"struct\"},\"payload\":{\"after\":{\"id\":3,\"v\":1},\"op\":\"c\","
                        + "\"source\":{\"connector\":\"postgresql\",\"lsn\":10}}}")));
        assertEquals("3", e.getKey());
        assertEquals(10L, e.getScn());
        assertEquals("{\"id\":3,\"v\":1}", payload(e));
    }

    @Test
    void snapshotReadsAreUpserts() {
        assertEquals(
                Op.UPSERT,
                ok(BY_ID.decode(
                                null,
                                b(
                                        "{\"after\":{\"id\":1},\"op\":\"r\",\"source\":{\"connector\":\"oracle\",\"scn\":\"5\"}}")))
                        .getOp());
    }

    @Test
    void compositeKeysAreJoinedByColonsAfterThePrefix() {
        DebeziumDecoder d = new DebeziumDecoder(List.of("tenant", "id"), "orders:", DebeziumDecoder.AUTO);
        ChangeEvent e = ok(
                d.decode(
                        b("{\"tenant\":\"t9\",\"id\":12}"),
                        b(
                                "{\"after\":{\"tenant\":\"t9\",\"id\":12},\"op\":\"c\",\"source\":{\"connector\":\"oracle\",\"scn\":1}}")));
        assertEquals("orders:t9:12", e.getKey());
        // a field the record key lacks is read from the row image
        DebeziumDecoder byRegion = new DebeziumDecoder(List.of("id", "region"), "", DebeziumDecoder.AUTO);
        assertEquals(
                "12:eu",
                ok(byRegion.decode(
                                b("{\"id\":12}"),
                                b("{\"after\":{\"id\":12,\"region\":\"eu\"},\"op\":\"c\","
                                        + "\"source\":{\"connector\":\"oracle\",\"scn\":1}}")))
                        .getKey());
    }

    @Test
    void mysqlVersionsFollowTheBinlogPosition() {
        long earlier =
                ok(BY_ID.decode(null, mysql("mysql-bin.000003", 4000, 0))).getScn();
        long laterRow =
                ok(BY_ID.decode(null, mysql("mysql-bin.000003", 4000, 1))).getScn();
        long laterPos =
                ok(BY_ID.decode(null, mysql("mysql-bin.000003", 4100, 0))).getScn();
        long laterFile = ok(BY_ID.decode(null, mysql("mysql-bin.000004", 4, 0))).getScn();
        assertTrue(earlier < laterRow && laterRow < laterPos && laterPos < laterFile);
    }

    @Property
    void packedBinlogPositionsOrderAsThePositionsDo(
            @ForAll @IntRange(max = (1 << 20) - 1) int file1,
            @ForAll @LongRange(max = (1L << 32) - 1) long pos1,
            @ForAll @IntRange(max = (1 << 11) - 1) int row1,
            @ForAll @IntRange(max = (1 << 20) - 1) int file2,
            @ForAll @LongRange(max = (1L << 32) - 1) long pos2,
            @ForAll @IntRange(max = (1 << 11) - 1) int row2) {
        long v1 = ok(BY_ID.decode(null, mysql(String.format("bin.%06d", file1), pos1, row1)))
                .getScn();
        long v2 = ok(BY_ID.decode(null, mysql(String.format("bin.%06d", file2), pos2, row2)))
                .getScn();
        int byPosition = file1 != file2
                ? Integer.compare(file1, file2)
                : pos1 != pos2 ? Long.compare(pos1, pos2) : Integer.compare(row1, row2);
        assertTrue(v1 >= 0 && v2 >= 0);
        assertEquals(Integer.signum(byPosition), Integer.signum(Long.compare(v1, v2)));
    }

    @Test
    void aNamedVersionFieldIsUsedWhateverTheConnector() {
        DebeziumDecoder d = new DebeziumDecoder(List.of("id"), "", "source.commit_lsn");
        assertEquals(
                77L,
                ok(d.decode(
                                null,
                                b("{\"after\":{\"id\":1},\"op\":\"c\",\"source\":{\"connector\":\"sqlserver\","
                                        + "\"commit_lsn\":\"77\"}}")))
                        .getScn());
    }

    @Test
    void tombstonesAfterADeleteAreSkippedNotRejected() {
        assertTrue(BY_ID.decode(b("{\"id\":1}"), null).isSkipped());
        assertTrue(BY_ID.decode(b("{\"id\":1}"), new byte[0]).isSkipped());
        assertTrue(BY_ID.decode(b("{\"id\":1}"), b("null")).isSkipped());
        assertTrue(BY_ID.decode(b("{\"id\":1}"), b("{\"schema\":null,\"payload\":null}"))
                .isSkipped());
    }

    /** The rule docs/debezium.md's version table states: a PostgreSQL snapshot read without an LSN is (0, 0). */
    @Test
    void aPostgresSnapshotReadWithoutAnLsnRanksBelowEveryStreamedChange() {
        ChangeEvent read = ok(BY_ID.decode(
                b("{\"id\":1}"), b("{\"after\":{\"id\":1},\"op\":\"r\",\"source\":{\"connector\":\"postgresql\"}}")));
        assertEquals(0, read.getScn());
        assertEquals(0, read.getSeq());
        ChangeEvent streamed = ok(BY_ID.decode(
                b("{\"id\":1}"),
                b("{\"after\":{\"id\":1},\"op\":\"u\",\"source\":{\"connector\":\"postgresql\",\"lsn\":5}}")));
        assertTrue(ChangeEvents.cacheRecord(streamed)
                .version()
                .isNewerThan(ChangeEvents.cacheRecord(read).version()));
    }

    @Test
    void eventsWithoutAUsableVersionOrKeyAreRejectedWithTheReason() {
        assertReason(
                Rejection.Reason.BAD_SCN,
                "sqlserver",
                BY_ID.decode(null, b("{\"after\":{\"id\":1},\"op\":\"c\",\"source\":{\"connector\":\"sqlserver\"}}")));
        assertReason(
                Rejection.Reason.BAD_SCN,
                "source.scn",
                BY_ID.decode(
                        null,
                        b("{\"after\":{\"id\":1},\"op\":\"c\",\"source\":{\"connector\":\"oracle\",\"scn\":\"x\"}}")));
        assertReason(
                Rejection.Reason.BAD_SCN, "does not fit", BY_ID.decode(null, mysql("mysql-bin.000001", 1L << 32, 0)));
        assertReason(
                Rejection.Reason.MISSING_KEY,
                "'id'",
                BY_ID.decode(
                        null, b("{\"after\":{\"k\":1},\"op\":\"c\",\"source\":{\"connector\":\"oracle\",\"scn\":1}}")));
        assertReason(
                Rejection.Reason.MISSING_PAYLOAD,
                "after",
                BY_ID.decode(null, b("{\"after\":null,\"op\":\"c\",\"source\":{\"connector\":\"oracle\",\"scn\":1}}")));
        assertReason(
                Rejection.Reason.TRUNCATE,
                "TRUNCATE of table orders",
                BY_ID.decode(
                        null,
                        b("{\"op\":\"t\",\"source\":{\"connector\":\"postgresql\",\"lsn\":1,\"table\":\"orders\"}}")));
        assertReason(
                Rejection.Reason.UNKNOWN_OP,
                "'m'",
                BY_ID.decode(null, b("{\"op\":\"m\",\"source\":{\"connector\":\"postgresql\",\"lsn\":1}}")));
        assertReason(Rejection.Reason.UNDECODABLE, "not JSON", BY_ID.decode(null, b("{oops")));
        assertReason(Rejection.Reason.UNDECODABLE, "\"op\"", BY_ID.decode(null, b("{\"id\":1}")));
    }

    @Test
    void fileLinesAreEnvelopesOrKeyValuePairs() {
        DebeziumText.KafkaRecord pair = DebeziumText.record("{\"key\":{\"id\":5},\"value\":null}", BY_ID);
        assertArrayEquals(b("{\"id\":5}"), pair.key());
        assertNull(pair.value());
        String envelope =
                "{\"before\":{\"id\":5,\"x\":1},\"op\":\"d\",\"source\":{\"connector\":\"oracle\",\"scn\":9}}";
        DebeziumText.KafkaRecord alone = DebeziumText.record(envelope, BY_ID);
        assertArrayEquals(b("{\"id\":5}"), alone.key(), "key made from the before image of a delete");
        assertArrayEquals(b(envelope), alone.value());
        assertNull(DebeziumText.record("[1,2]", BY_ID));
        assertNull(DebeziumText.record("not json", BY_ID));
    }

    /**
     * The race a real capture showed (docs/debezium.md#postgresql): an INSERT that waited on the key's
     * unique index for a transaction deleting the key commits after that delete, with a lower change LSN.
     * By the change's LSN the delete wins and the cache keeps a tombstone the table does not have.
     */
    @Test
    void postgresChangesAreOrderedByCommitNotByTheirOwnLsn() {
        ChangeEvent insert = ok(BY_ID.decode(null, pg("c", 22682100, 22682192, false)));
        ChangeEvent delete = ok(BY_ID.decode(null, pg("d", 22682250, 22682464, false)));
        ChangeEvent waitedInsert = ok(BY_ID.decode(null, pg("c", 22682520, 22682360, false)));
        assertTrue(waitedInsert.getSeq() < delete.getSeq(), "the fixture has the race: a lower change LSN");
        assertTrue(version(delete).isNewerThan(version(insert)));
        assertTrue(version(waitedInsert).isNewerThan(version(delete)), "the insert committed last, so it wins");
    }

    /** A transaction open while the slot was made commits after the snapshot with an LSN below the reads'. */
    @Test
    void postgresSnapshotReadsRankBelowEveryStreamedChange() {
        ChangeEvent read = ok(BY_ID.decode(null, pg("r", -1, 22272176, true)));
        ChangeEvent firstStreamed = ok(BY_ID.decode(null, pg("u", -1, 22267768, false)));
        assertTrue(version(firstStreamed).isNewerThan(version(read)));
        assertEquals(0, read.getScn());
    }

    /** A transaction's changes share the commit position; their own LSNs order them within it. */
    @Test
    void postgresChangesOfOneTransactionFollowTheirLsn() {
        Version first = version(ok(BY_ID.decode(null, pg("u", 500, 610, false))));
        Version second = version(ok(BY_ID.decode(null, pg("u", 500, 640, false))));
        assertTrue(second.isNewerThan(first));
        assertEquals(500, second.scn().value());
    }

    @Test
    void oracleOrdersByCommitScnThenTheTransactionSequence() {
        Version early = version(ok(BY_ID.decode(null, oracle("900", "1000", 2))));
        Version sameScnLater = version(ok(BY_ID.decode(null, oracle("900", "1000", 3))));
        Version laterCommit = version(ok(BY_ID.decode(null, oracle("850", "1001", 1))));
        assertTrue(sameScnLater.isNewerThan(early), "two changes of one row can share an SCN");
        assertTrue(laterCommit.isNewerThan(sameScnLater), "commit order beats the change's own SCN");
    }

    /**
     * Incremental snapshot reads rank where their window closed: on Oracle at the high watermark's commit
     * SCN (sequence 0: below the changes committed after it, above those before); on MySQL at the
     * binlog position of the window's close, as any event there.
     */
    @Test
    void incrementalReadsRankWhereTheirWindowClosedOnOracleAndMysql() {
        Version before = version(ok(BY_ID.decode(null, oracle("990", "1000", 4))));
        Version read = version(ok(BY_ID.decode(
                null,
                b("{\"after\":{\"id\":1},\"op\":\"r\",\"source\":{\"connector\":\"oracle\",\"snapshot\":"
                        + "\"incremental\",\"scn\":\"1004\",\"commit_scn\":\"1005\",\"txSeq\":1}}"))));
        Version after = version(ok(BY_ID.decode(null, oracle("1003", "1006", 1))));
        assertTrue(read.isNewerThan(before), read + " above " + before);
        assertTrue(after.isNewerThan(read), after + " above " + read);
        Version initial = version(ok(BY_ID.decode(
                null,
                b("{\"after\":{\"id\":1},\"op\":\"r\",\"source\":{\"connector\":\"oracle\",\"snapshot\":"
                        + "\"true\",\"scn\":\"1004\",\"commit_scn\":\"1005\"}}"))));
        assertEquals(1004L, initial.scn().value(), "the initial snapshot's read keeps the flashback SCN");

        Version mysqlRead = version(ok(BY_ID.decode(
                null,
                b("{\"after\":{\"id\":1},\"op\":\"r\",\"source\":{\"connector\":\"mysql\",\"snapshot\":"
                        + "\"incremental\",\"file\":\"binlog.000002\",\"pos\":900,\"row\":0}}"))));
        assertTrue(mysqlRead.isNewerThan(version(ok(BY_ID.decode(null, mysql("binlog.000002", 800, 0))))));
        assertTrue(
                version(ok(BY_ID.decode(null, mysql("binlog.000002", 1200, 0)))).isNewerThan(mysqlRead));
    }

    @Test
    void mariadbEventsUseTheBinlogPosition() {
        ChangeEvent e = ok(BY_ID.decode(
                null,
                b("{\"after\":{\"id\":1},\"op\":\"c\",\"source\":{\"connector\":\"mariadb\","
                        + "\"file\":\"mariadb-bin.000003\",\"pos\":154,\"row\":0}}")));
        assertEquals(3L << 43 | 154L << 11, e.getScn());
    }

    /** Kafka Connect writes a DECIMAL as base64 of its unscaled bytes; the schema gives the scale. */
    @Test
    void decimalKeysAndValuesAreReadAsNumbersByTheirSchema() {
        String decimal = "{\"type\":\"bytes\",\"name\":\"org.apache.kafka.connect.data.Decimal\","
                + "\"parameters\":{\"scale\":\"%d\"},\"field\":\"%s\"}";
        String rowSchema = "{\"type\":\"struct\",\"fields\":[" + String.format(decimal, 0, "id") + ","
                + String.format(decimal, 2, "price") + "]}";
        String value =
                "{\"schema\":{\"type\":\"struct\",\"fields\":[" + rowSchema.replace("}]}", "}],\"field\":\"after\"}")
                        + "]},\"payload\":{\"after\":{\"id\":\"A+k=\",\"price\":\"BOI=\"},\"op\":\"c\","
                        + "\"source\":{\"connector\":\"postgresql\",\"lsn\":5}}}";
        String key = "{\"schema\":{\"type\":\"struct\",\"fields\":[" + String.format(decimal, 0, "id")
                + "]},\"payload\":{\"id\":\"A+k=\"}}";
        ChangeEvent e = ok(BY_ID.decode(b(key), b(value)));
        assertEquals("1001", e.getKey());
        assertEquals("{\"id\":1001,\"price\":12.50}", payload(e));
        // the record key without its schema: the row's schema decodes the key field
        assertEquals("1001", ok(BY_ID.decode(b("{\"id\":\"A+k=\"}"), b(value))).getKey());
    }

    /** Oracle NUMBER without precision (and NUMERIC without one) is a struct of scale and base64 value. */
    @Test
    void variableScaleDecimalKeysAreReadAsNumbers() {
        ChangeEvent e = ok(BY_ID.decode(
                b("{\"id\":{\"scale\":0,\"value\":\"A+k=\"}}"),
                b("{\"after\":{\"id\":{\"scale\":0,\"value\":\"A+k=\"},\"n\":1},\"op\":\"c\","
                        + "\"source\":{\"connector\":\"oracle\",\"scn\":\"7\"}}")));
        assertEquals("1001", e.getKey());
        assertEquals("{\"id\":1001,\"n\":1}", payload(e));
    }

    /** A row with a column Debezium did not capture is passed on as it is: the ordered write completes it. */
    @Test
    void anUncapturedColumnIsPassedOnForTheWriteToComplete() throws Exception {
        for (String placeholder : new String[] {
            "\"__debezium_unavailable_value\"",
            "\"X19kZWJleml1bV91bmF2YWlsYWJsZV92YWx1ZQ==\"",
            "[\"__debezium_unavailable_value\"]"
        }) {
            ChangeEvent e = ok(BY_ID.decode(
                    null,
                    b("{\"after\":{\"id\":1,\"bio\":" + placeholder + "},\"op\":\"u\","
                            + "\"source\":{\"connector\":\"postgresql\",\"lsn\":9}}")));
            byte[] payload = b(payload(e));
            assertTrue(PartialImages.isPartial(payload), placeholder);
            assertEquals(
                    List.of("bio"),
                    PartialImages.uncaptured(new com.fasterxml.jackson.databind.ObjectMapper().readTree(payload(e))));
        }
        assertFalse(PartialImages.isPartial(b("{\"id\":1,\"bio\":\"text\"}")));
        assertFalse(PartialImages.isPartial(b("not json __debezium_unavailable_value")));
    }

    /** ExtractNewRecordState's row with add.fields=op,lsn,source.sequence and delete.handling.mode=rewrite. */
    @Test
    void theUnwrapTransformsRowsAreRead() {
        ChangeEvent upsert = ok(BY_ID.decode(
                b("{\"id\":4}"),
                b("{\"id\":4,\"name\":\"Ada\",\"__op\":\"u\",\"__lsn\":700,"
                        + "\"__source_sequence\":\"[\\\"650\\\",\\\"700\\\"]\",\"__source_connector\":\"postgresql\","
                        + "\"__source_ts_ms\":12,\"__deleted\":\"false\"}")));
        assertEquals(Op.UPSERT, upsert.getOp());
        assertEquals("{\"id\":4,\"name\":\"Ada\"}", payload(upsert), "the added fields are not the row");
        assertEquals(Version.of(650, 700, 0), version(upsert));
        assertEquals(12L, upsert.getCommitTimeMillis());
        ChangeEvent delete = ok(BY_ID.decode(
                b("{\"id\":4}"),
                b("{\"id\":4,\"name\":\"Ada\",\"__op\":\"d\",\"__lsn\":800,"
                        + "\"__source_sequence\":\"[\\\"760\\\",\\\"800\\\"]\",\"__deleted\":\"true\"}")));
        assertEquals(Op.DELETE, delete.getOp());
        assertTrue(version(delete).isNewerThan(version(upsert)));
        assertReason(
                Rejection.Reason.UNDECODABLE,
                "unwrap",
                BY_ID.decode(b("{\"id\":4}"), b("{\"id\":4,\"name\":\"Ada\"}")));
    }

    /** A string converter's key ("Struct{id=5}") is not JSON: the key comes from the row image. */
    @Test
    void aRecordKeyThatIsNotJsonFallsBackToTheRowImage() {
        assertEquals(
                "5",
                ok(BY_ID.decode(
                                b("Struct{id=5}"),
                                b(
                                        "{\"after\":{\"id\":5},\"op\":\"c\",\"source\":{\"connector\":\"oracle\",\"scn\":1}}")))
                        .getKey());
    }

    private static Version version(ChangeEvent e) {
        return Version.of(e.getScn(), e.getSeq(), e.getSchemaVersion());
    }

    /** A PostgreSQL event of key 1; lastCommit -1 for a null first element of source.sequence. */
    private static byte[] pg(String op, long lastCommit, long lsn, boolean snapshot) {
        String image = op.equals("d") ? "\"before\":{\"id\":1}" : "\"after\":{\"id\":1}";
        String sequence = snapshot
                ? ""
                : ",\"sequence\":\"[" + (lastCommit < 0 ? "null" : "\\\"" + lastCommit + "\\\"") + ",\\\"" + lsn
                        + "\\\"]\"";
        return b("{" + image + ",\"op\":\"" + op + "\",\"source\":{\"connector\":\"postgresql\",\"snapshot\":\""
                + snapshot + "\",\"lsn\":" + lsn + sequence + "}}");
    }

    private static byte[] oracle(String scn, String commitScn, int txSeq) {
        return b("{\"after\":{\"id\":1},\"op\":\"u\",\"source\":{\"connector\":\"oracle\",\"scn\":\"" + scn
                + "\",\"commit_scn\":\"" + commitScn + "\",\"txSeq\":" + txSeq + "}}");
    }

    private static byte[] mysql(String file, long pos, int row) {
        return b("{\"after\":{\"id\":1},\"op\":\"u\",\"source\":{\"connector\":\"mysql\",\"file\":\"" + file
                + "\",\"pos\":" + pos + ",\"row\":" + row + "}}");
    }

    private static void assertReason(Rejection.Reason reason, String inDetail, Decoded d) {
        assertTrue(d.rejection() != null, () -> "not rejected: " + d);
        assertEquals(reason, d.rejection().reason(), d.rejection().detail());
        assertTrue(d.rejection().detail().contains(inDetail), d.rejection().detail());
    }
}
