import { configJsonSchema } from '../src/config/file-schema.js';
console.log(JSON.stringify(configJsonSchema(), null, 1));
