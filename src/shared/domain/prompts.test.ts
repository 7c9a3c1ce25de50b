import { describe, expect, it } from 'vitest';
import { fillPrompt, matchPrompts, promptTextProblem, promptVariables, slashCommandAt } from './prompts';

describe('prompt variables', () => {
  it('finds each variable once, in order of first use, spaces inside the braces ignored', () => {
    expect(promptVariables('Write {{ tone }} text about {{topic}} in a {{tone}} voice')).toEqual(['tone', 'topic']);
    expect(promptVariables('주제: {{대상}}, 語調: {{口調}}, {{tone_2}}')).toEqual(['대상', '口調', 'tone_2']);
    expect(promptVariables('No variables, { braces } or {{}} or {{two words}}')).toEqual([]);
  });

  it('says what is wrong with a placeholder that is not a variable, and with too many variables', () => {
    expect(promptTextProblem('Fine {{topic}} and { single }')).toBeNull();
    expect(promptTextProblem('Empty {{ }}')).toBe('invalid_variable');
    expect(promptTextProblem('Spaced {{two words}}')).toBe('invalid_variable');
    expect(promptTextProblem('Digit first {{1st}}')).toBe('invalid_variable');
    expect(promptTextProblem(`Long {{${'v'.repeat(31)}}}`)).toBe('invalid_variable');
    expect(promptTextProblem(Array.from({ length: 10 }, (_, i) => `{{v${i}}}`).join(' '))).toBeNull();
    expect(promptTextProblem(Array.from({ length: 11 }, (_, i) => `{{v${i}}}`).join(' '))).toBe('too_many_variables');
  });

  it('fills every use of a variable in one pass: a value holding braces stays as typed', () => {
    expect(fillPrompt('{{ tone }} text on {{topic}}, {{tone}} again', { tone: 'Calm', topic: '{{tone}}' })).toBe('Calm text on {{tone}}, Calm again');
    // A variable without a value keeps its placeholder; `hasOwn` keeps Object.prototype names out.
    expect(fillPrompt('{{topic}} {{constructor}}', {})).toBe('{{topic}} {{constructor}}');
    expect(fillPrompt('Costs $& and $1: {{x}}', { x: '$&' })).toBe('Costs $& and $1: $&');
  });
});

describe('the / command', () => {
  it('is a slash at the start or after white space, up to the caret', () => {
    expect(slashCommandAt('/wee', 4)).toEqual({ start: 0, query: 'wee' });
    expect(slashCommandAt('Hello /', 7)).toEqual({ start: 6, query: '' });
    expect(slashCommandAt('line\n/tr', 8)).toEqual({ start: 5, query: 'tr' });
    expect(slashCommandAt('and/or', 6)).toBeNull();
    expect(slashCommandAt('/wee kly', 8)).toBeNull();
    expect(slashCommandAt('/weekly report', 3)).toEqual({ start: 0, query: 'we' });
  });

  it('matches names containing the typed text, letter case ignored, those starting with it first', () => {
    const prompts = [{ name: 'Summarise a report' }, { name: 'Report weekly' }, { name: 'Translate' }];
    expect(matchPrompts(prompts, 'REP').map((p) => p.name)).toEqual(['Report weekly', 'Summarise a report']);
    expect(matchPrompts(prompts, '')).toHaveLength(3);
    expect(matchPrompts(prompts, 'xyz')).toEqual([]);
  });
});
