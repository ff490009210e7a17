package io.nearline.common.schema;

/** A payload names a schema version the registry does not have (bad input, or a reader not yet updated). */
public class UnknownSchemaException extends SchemaRegistryException {
    public UnknownSchemaException(String table, int version) {
        super("no schema registered for table '" + table + "' version " + version);
    }
}
