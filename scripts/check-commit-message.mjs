// The commit-msg hook's check: a subject of at most 72 characters, a blank line, and a body that
// says why. Merge and revert messages written by git pass as they are.
import { readFileSync } from 'node:fs';

const lines = readFileSync(process.argv[2], 'utf8')
  .split('\n')
  .filter((line) => !line.startsWith('#'));
const [subject = '', blank, ...body] = lines;
const problems = [];
if (/^(Merge|Revert) /.test(subject)) process.exit(0);
if (subject.trim() === '') problems.push('the subject is empty');
if (subject.length > 72) problems.push(`the subject has ${subject.length} characters; keep it to 72 and put the rest in the body`);
if (blank !== undefined && blank.trim() !== '') problems.push('the second line must be blank');
if (body.join('').trim() === '') problems.push('there is no body: say why the change is made');
if (problems.length > 0) {
  console.error(`commit message: ${problems.join('; ')}`);
  process.exit(1);
}
