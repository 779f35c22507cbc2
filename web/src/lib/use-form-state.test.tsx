import { messages } from '@mixcrate/api/rules';
import { passwordWithConfirmationSchema } from '@mixcrate/api/validation';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TextField } from '../components/TextField';
import { useFormState } from './use-form-state';

const STRONG = 'Newpass1!';

type Sent = { password: string; confirmPassword: string };

function PasswordForm({ send, onEdit }: { send(data: Sent): Promise<void> | void; onEdit?(): void }) {
  const form = useFormState(passwordWithConfirmationSchema, { password: '', confirmPassword: '' }, { onEdit });
  return (
    <form onSubmit={form.submitWith(send)} noValidate>
      <TextField label="Password" {...form.field('password')} />
      <TextField label="Confirm password" {...form.field('confirmPassword')} />
      <button type="submit">{form.submitting ? 'Sending…' : 'Send'}</button>
    </form>
  );
}

function renderForm(send: (data: Sent) => Promise<void> | void = vi.fn(), onEdit = vi.fn()) {
  render(<PasswordForm send={send} onEdit={onEdit} />);
  return { send, onEdit, user: userEvent.setup({ delay: null }) };
}

const password = () => screen.getByLabelText('Password');
const confirmation = () => screen.getByLabelText('Confirm password');
const errorOf = (input: HTMLElement) => {
  const id = input.getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

describe('useFormState', () => {
  it('names each field and shows its typed value', async () => {
    const { user } = renderForm();
    await user.type(password(), 'abc');
    expect(password().getAttribute('name')).toBe('password');
    expect(confirmation().getAttribute('name')).toBe('confirmPassword');
    expect((password() as HTMLInputElement).value).toBe('abc');
  });

  it("keeps a field's error hidden until the field is left, and shows only that field's", async () => {
    const { user } = renderForm();
    await user.type(password(), 'weak');
    expect(errorOf(password())).toBeUndefined();

    await user.click(confirmation());
    expect(errorOf(password())).toBe(messages.passwordRule);
    expect(errorOf(confirmation())).toBeUndefined();
  });

  it('shows every error on submit and sends nothing while one is left', async () => {
    const { user, send } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(errorOf(password())).toBe(messages.passwordRequired);
    expect(errorOf(confirmation())).toBe(messages.confirmRequired);

    await user.type(password(), STRONG);
    await user.type(confirmation(), 'Otherpass1!');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(errorOf(password())).toBeUndefined();
    expect(errorOf(confirmation())).toBe(messages.passwordsDiffer);
    expect(send).not.toHaveBeenCalled();
  });

  it('sends the values as the schema parses them (trimmed), once, and says it is submitting until sending ends', async () => {
    let finish = () => {};
    const send = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { user } = renderForm(send);
    await user.type(password(), ` ${STRONG} `);
    await user.type(confirmation(), STRONG);

    const form = password().closest('form') as HTMLFormElement;
    fireEvent.submit(form);
    fireEvent.submit(form);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith({ password: STRONG, confirmPassword: STRONG });
    expect(await screen.findByRole('button', { name: 'Sending…' })).toBeTruthy();

    finish();
    expect(await screen.findByRole('button', { name: 'Send' })).toBeTruthy();
    fireEvent.submit(form);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('tells the form about every edit', async () => {
    const { user, onEdit } = renderForm();
    await user.type(password(), 'ab');
    expect(onEdit).toHaveBeenCalledTimes(2);
  });
});
