package io.nearline.localcluster.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterFileTest {

    @TempDir
    Path dir;

    private ClusterFile file(String connect, Map<String, Map<String, String>> databases) {
        return new ClusterFile(
                dir,
                "10.0.0.2:9092",
                "redis",
                Map.of("servers", "redis://10.0.0.2:6379"),
                null,
                null,
                null,
                null,
                null,
                "hdfs://10.0.0.1:8020/nearline/packages",
                "nearline-0001",
                "10.0.0.2",
                connect,
                null,
                databases,
                Map.of("kafka", 42L));
    }

    @Test
    void aDatabaseAndTheConnectWorkerSurviveAWriteAndARead() {
        Map<String, String> postgres = Map.of("host", "10.0.0.2", "port", "5432", "table", "public.items");
        file("http://10.0.0.2:8083", Map.of("postgres", postgres)).write();
        ClusterFile read = ClusterFile.read(dir);
        assertEquals("http://10.0.0.2:8083", read.connectRest());
        assertEquals(postgres, read.database("postgres"));
        // what SourceTable and 'check --source' read is the same section
        assertTrue(read.databases().keySet().containsAll(java.util.Set.of("postgres")));
    }

    @Test
    void withoutThemTheCommandsThatNeedThemSayHowToGetThem() {
        file(null, Map.of()).write();
        ClusterFile read = ClusterFile.read(dir);
        assertNull(read.connectRestUrl());
        ClusterException noConnect = assertThrows(ClusterException.class, read::connectRest);
        assertTrue(noConnect.getMessage().contains("cluster up --connect"), noConnect.getMessage());
        ClusterException noDatabase = assertThrows(ClusterException.class, () -> read.database("mysql"));
        assertTrue(noDatabase.getMessage().contains("cluster up --mysql"), noDatabase.getMessage());
    }

    @Test
    void packagesAreAUriAndAnEarlierPackageDirReadsAsItsFileUri() throws Exception {
        file(null, Map.of()).write();
        assertEquals(
                "hdfs://10.0.0.1:8020/nearline/packages", ClusterFile.read(dir).packages());

        java.nio.file.Files.writeString(
                dir.resolve(ClusterFile.NAME),
                "kafka:\n  bootstrap-servers: k:9092\nstore: redis\nredis:\n  servers: redis://r\n"
                        + "package-dir: /srv/packages\n");
        assertEquals("file:///srv/packages", ClusterFile.read(dir).packages());

        java.nio.file.Files.writeString(
                dir.resolve(ClusterFile.NAME), "kafka:\n  bootstrap-servers: k:9092\nstore: redis\n");
        ClusterException none =
                assertThrows(ClusterException.class, () -> ClusterFile.read(dir).packageStore());
        assertTrue(none.getMessage().contains("--packages hdfs://"), none.getMessage());
    }
}
