/**
 * Astro's `env.schema` (`astro.config.mjs`), generated from the one table of the environment
 * (`environment.ts`): the variables with an Astro place, with the same checks and the same
 * defaults, so `astro:env` and the Node side never disagree. For the config only.
 */
import { envField } from 'astro/config';
import { VARIABLES, type VariableName } from './environment.ts';

type EnvFieldType =
  | ReturnType<typeof envField.string>
  | ReturnType<typeof envField.number>
  | ReturnType<typeof envField.boolean>
  | ReturnType<typeof envField.enum>;

// Astro types each field's options as a union over its context and access; the table holds
// them as two words, checked by Astro when it reads the schema.
type StringInput = Parameters<typeof envField.string>[0];
type NumberInput = Parameters<typeof envField.number>[0];
type BooleanInput = Parameters<typeof envField.boolean>[0];
type EnumInput = Parameters<typeof envField.enum<string>>[0];

/** The `env.schema` entries: one field per variable Astro declares. */
export function astroEnvSchema(): Partial<Record<VariableName, EnvFieldType>> {
  const schema: Partial<Record<VariableName, EnvFieldType>> = {};
  for (const name of Object.keys(VARIABLES) as VariableName[]) {
    const variable = VARIABLES[name];
    const place = variable.astro;
    if (place === undefined) continue;
    const fallback: unknown = variable.default;
    const presence =
      fallback !== undefined ? { default: fallback } : variable.required ? {} : { optional: true };
    const { type, ...checks } = variable.check;
    const options = { ...place, ...checks, ...presence };
    if (type === 'string') schema[name] = envField.string(options as StringInput);
    else if (type === 'number') schema[name] = envField.number(options as NumberInput);
    else if (type === 'boolean') schema[name] = envField.boolean(options as BooleanInput);
    else schema[name] = envField.enum(options as EnumInput);
  }
  return schema;
}
