// The recorder's users read traces too: `import ReactorTrace` brings the schema and the reader.
@_exported import ReactorTraceFormat
