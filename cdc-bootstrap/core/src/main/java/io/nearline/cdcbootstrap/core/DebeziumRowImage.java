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
package io.nearline.cdcbootstrap.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Locale;

/**
 * A row read over JDBC, written the way the cache holds the same row when Debezium's connector
 * captured it (its default settings, Kafka Connect's JSON converter, then Nearline's decoder): numbers
 * and decimals as JSON numbers, text as text, dates as days since the epoch, timestamps without a
 * zone as milliseconds (precision up to 3) or microseconds (up to 6) since the epoch, timestamps with
 * one as ISO-8601 text in UTC. A bootstrap row and a streamed change of the same row are then the same
 * bytes in the cache. A column of any other type is refused before a row is read: the bootstrap cannot
 * promise to write it as the connector does.
 */
public final class DebeziumRowImage {

    /** How one column is read and written. */
    private enum Rendering {
        INTEGER,
        DECIMAL,
        FLOAT,
        DOUBLE,
        BOOLEAN,
        TEXT,
        EPOCH_DAYS,
        EPOCH_MILLIS,
        EPOCH_MICROS,
        ZONED_TEXT
    }

    private final String[] names;
    private final Rendering[] renderings;
    private final DateTimeFormatter[] zonedFormats;

    private DebeziumRowImage(String[] names, Rendering[] renderings, DateTimeFormatter[] zonedFormats) {
        this.names = names;
        this.renderings = renderings;
        this.zonedFormats = zonedFormats;
    }

    /** The image of the result's columns; IllegalArgumentException naming the first column it cannot write. */
    public static DebeziumRowImage of(ResultSetMetaData meta, DatabaseSnapshot.Source source, String table)
            throws SQLException {
        int n = meta.getColumnCount();
        String[] names = new String[n];
        Rendering[] renderings = new Rendering[n];
        DateTimeFormatter[] zoned = new DateTimeFormatter[n];
        for (int i = 0; i < n; i++) {
            names[i] = meta.getColumnLabel(i + 1);
            String type = meta.getColumnTypeName(i + 1).toLowerCase(Locale.ROOT);
            int digits = fractionDigits(meta, i + 1, source);
            renderings[i] = rendering(meta.getColumnType(i + 1), type, digits, source);
            if (renderings[i] == null) {
                throw new IllegalArgumentException("table " + table + ", column " + names[i] + ": type " + type
                        + " is not one the bootstrap writes as Debezium's connector does (numbers, decimals, text, "
                        + "dates and timestamps are; docs/debezium.md#bootstrap-from-the-database)");
            }
            if (renderings[i] == Rendering.ZONED_TEXT) {
                // the column's digits, as both connectors stream them (MySQL's snapshot reads write as few as needed)
                zoned[i] = zonedFormat(digits);
            }
        }
        return new DebeziumRowImage(names, renderings, zoned);
    }

    /**
     * A temporal column's digits of fraction: PostgreSQL's driver reports them as the scale, MySQL's
     * only in the display width ({@code YYYY-MM-DD HH:MM:SS} is 19, then a point and the digits).
     */
    private static int fractionDigits(ResultSetMetaData meta, int i, DatabaseSnapshot.Source source)
            throws SQLException {
        if (source == DatabaseSnapshot.Source.POSTGRES) {
            return meta.getScale(i);
        }
        int width = meta.getPrecision(i);
        return width > 20 ? width - 20 : 0;
    }

    private static Rendering rendering(int sqlType, String type, int scale, DatabaseSnapshot.Source source) {
        boolean mysql = source == DatabaseSnapshot.Source.MYSQL;
        return switch (sqlType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> Rendering.INTEGER;
            case Types.NUMERIC, Types.DECIMAL -> Rendering.DECIMAL;
            case Types.REAL -> Rendering.FLOAT;
            case Types.FLOAT, Types.DOUBLE -> mysql && type.startsWith("float") ? Rendering.FLOAT : Rendering.DOUBLE;
            // MySQL's BOOLEAN is TINYINT(1), which its connector writes as a number: refused rather than guessed
            case Types.BOOLEAN, Types.BIT -> mysql ? null : Rendering.BOOLEAN;
            case Types.CHAR,
                    Types.VARCHAR,
                    Types.LONGVARCHAR,
                    Types.NCHAR,
                    Types.NVARCHAR,
                    Types.LONGNVARCHAR,
                    Types.CLOB -> Rendering.TEXT;
            case Types.DATE -> Rendering.EPOCH_DAYS;
            case Types.TIMESTAMP -> {
                // points in time (written zoned): MySQL's TIMESTAMP, PostgreSQL's timestamptz (which its driver
                // reports as TIMESTAMP); MySQL's DATETIME and PostgreSQL's timestamp are not
                if (type.equals("timestamptz") || (mysql && type.equals("timestamp"))) {
                    yield Rendering.ZONED_TEXT;
                }
                yield scale <= 3 ? Rendering.EPOCH_MILLIS : scale <= 6 ? Rendering.EPOCH_MICROS : null;
            }
            case Types.TIMESTAMP_WITH_TIMEZONE -> Rendering.ZONED_TEXT;
            case Types.OTHER ->
                type.equals("uuid") || type.equals("json") || type.equals("jsonb") ? Rendering.TEXT : null;
            default -> null;
        };
    }

    /** ISO-8601 in UTC, with exactly {@code digits} of fraction (0: as few as needed), as Debezium writes it. */
    private static DateTimeFormatter zonedFormat(int digits) {
        if (digits <= 0 || digits > 9) {
            return DateTimeFormatter.ISO_OFFSET_DATE_TIME;
        }
        return new DateTimeFormatterBuilder()
                .append(DateTimeFormatter.ISO_LOCAL_DATE)
                .appendLiteral('T')
                .appendValue(ChronoField.HOUR_OF_DAY, 2)
                .appendLiteral(':')
                .appendValue(ChronoField.MINUTE_OF_HOUR, 2)
                .appendLiteral(':')
                .appendValue(ChronoField.SECOND_OF_MINUTE, 2)
                .appendFraction(ChronoField.NANO_OF_SECOND, digits, digits, true)
                .appendOffsetId()
                .toFormatter(Locale.ROOT);
    }

    /** The current row of {@code r} as the cache would hold it. */
    public ObjectNode read(ResultSet r) throws SQLException {
        ObjectNode row = JsonNodeFactory.instance.objectNode();
        for (int i = 0; i < names.length; i++) {
            row.set(names[i], value(r, i + 1, renderings[i], zonedFormats[i]));
        }
        return row;
    }

    private static JsonNode value(ResultSet r, int i, Rendering rendering, DateTimeFormatter zoned)
            throws SQLException {
        if (r.getObject(i) == null) {
            return NullNode.getInstance();
        }
        return switch (rendering) {
            case INTEGER -> LongNode.valueOf(r.getLong(i));
            case DECIMAL -> DecimalNode.valueOf(r.getBigDecimal(i));
            // a float's shortest text, as the JSON converter writes it (not the double nearest its binary value)
            case FLOAT -> DoubleNode.valueOf(Double.parseDouble(Float.toString(r.getFloat(i))));
            case DOUBLE -> DoubleNode.valueOf(r.getDouble(i));
            case BOOLEAN -> BooleanNode.valueOf(r.getBoolean(i));
            case TEXT -> TextNode.valueOf(r.getString(i));
            case EPOCH_DAYS -> LongNode.valueOf(r.getObject(i, LocalDate.class).toEpochDay());
            case EPOCH_MILLIS -> LongNode.valueOf(epochMicros(r.getObject(i, LocalDateTime.class)) / 1000);
            case EPOCH_MICROS -> LongNode.valueOf(epochMicros(r.getObject(i, LocalDateTime.class)));
            case ZONED_TEXT -> TextNode.valueOf(instant(r, i).format(zoned));
        };
    }

    /** A timestamp without a zone counted from the epoch as if it were UTC, as Debezium counts it. */
    private static long epochMicros(LocalDateTime t) {
        return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000 + t.getNano() / 1000;
    }

    private static OffsetDateTime instant(ResultSet r, int i) throws SQLException {
        Timestamp t = r.getTimestamp(i);
        return t.toInstant().atOffset(ZoneOffset.UTC);
    }
}
