/** The error contract of adapters (codes, details, templates, declarations) and what is generated from it. */
export { buildContract, contractCodes, type Contract, type ContractCode, type ContractDetail, type ContractTemplate } from './contract';
export { generateTypes, toJsonSchema, toTypeScript, typeName, type TypesRequest } from './generate';
