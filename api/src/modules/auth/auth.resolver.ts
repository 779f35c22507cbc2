import { Arg, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { requireViewer } from '../../shared/viewer.js';
import { ViewerObject } from '../users/user.types.js';
import { authMessages } from './auth.errors.js';
import type { AuthResult } from './auth.service.js';
import { AuthPayload, ChangePasswordInput, ResetPasswordInput, SignInInput, SignUpInput } from './auth.types.js';

const payload = (ctx: GraphQLContext, result: AuthResult): AuthPayload =>
  Object.assign(new AuthPayload(), { token: result.token, viewer: ViewerObject.fromUser(ctx.services, result.user) });

@Resolver()
export class AuthResolver {
  @Mutation(() => AuthPayload)
  async signUp(@Arg('input', () => SignUpInput) input: SignUpInput, @Ctx() ctx: GraphQLContext): Promise<AuthPayload> {
    return payload(ctx, await ctx.services.auth.signUp(input, { ip: ctx.ip }));
  }

  @Mutation(() => AuthPayload)
  async signIn(@Arg('input', () => SignInInput) input: SignInInput, @Ctx() ctx: GraphQLContext): Promise<AuthPayload> {
    return payload(ctx, await ctx.services.auth.signIn(input, { ip: ctx.ip }));
  }

  @Mutation(() => String, { description: 'Checks the current password; an error when it is wrong.' })
  async checkPassword(@Arg('password', () => String) password: string, @Ctx() ctx: GraphQLContext): Promise<string> {
    await ctx.services.auth.checkPassword(requireViewer(ctx.viewer).id, password, { ip: ctx.ip });
    return authMessages.passwordCorrect;
  }

  @Mutation(() => String)
  async changePassword(@Arg('input', () => ChangePasswordInput) input: ChangePasswordInput, @Ctx() ctx: GraphQLContext): Promise<string> {
    await ctx.services.auth.changePassword(requireViewer(ctx.viewer), input, { ip: ctx.ip });
    return authMessages.passwordUpdated;
  }

  @Mutation(() => String, { description: 'Ends the session this request came with: its token stops working, its sockets close.' })
  async signOut(@Ctx() ctx: GraphQLContext): Promise<string> {
    await ctx.services.auth.signOut(requireViewer(ctx.viewer));
    return authMessages.signedOut;
  }

  @Mutation(() => Int, { description: 'Ends every session of the member, this one included; answers how many ended.' })
  signOutEverywhere(@Ctx() ctx: GraphQLContext): Promise<number> {
    return ctx.services.auth.signOutEverywhere(requireViewer(ctx.viewer));
  }

  @Mutation(() => String, { description: 'Mails a single-use reset link; the same answer whether or not the email is a member.' })
  requestPasswordReset(@Arg('email', () => String) email: string, @Ctx() ctx: GraphQLContext): Promise<string> {
    return ctx.services.auth.requestPasswordReset(email, { ip: ctx.ip });
  }

  @Mutation(() => String, { description: 'Sets a new password with the token from the reset email.' })
  resetPassword(@Arg('input', () => ResetPasswordInput) input: ResetPasswordInput, @Ctx() ctx: GraphQLContext): Promise<string> {
    return ctx.services.auth.resetPassword(input, { ip: ctx.ip });
  }
}
