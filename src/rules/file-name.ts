import { defineRule, stringField } from "./define.js";

export const fileName = defineRule({
  id: "file-name",
  scope: "dataset",
  meta: { description: "The file is named `<slug>.jsonl` after the slug of its records.", defaultSeverity: "error" },
  messages: { mismatch: 'file is named "{{fileName}}" but its records have slug "{{slug}}": expected "{{expected}}"' },
  create(context) {
    let checked = false;
    return {
      record({ record, line }) {
        if (checked) return;
        const slug = stringField(record, "slug");
        if (slug === undefined) return;
        checked = true;
        const expected = `${slug}.jsonl`;
        if (context.fileName !== expected) {
          context.report({
            messageId: "mismatch",
            data: { fileName: context.fileName, slug, expected },
            line,
            pointer: "/slug",
          });
        }
      },
    };
  },
});
