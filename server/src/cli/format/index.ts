/** The report formats of every command: each file renders reports (or contract changes) in one format; escaping for terminals and CI logs. */
export * from './changes';
export * from './changesSarif';
export * from './checkstyle';
export * from './codeclimate';
export * from './commands';
export * from './compact';
export * from './escape';
export * from './github';
export * from './json';
export * from './junit';
export * from './sarif';
export * from './text';
export * from './xml';
