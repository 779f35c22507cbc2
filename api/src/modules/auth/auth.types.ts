import { Field, InputType, ObjectType } from 'type-graphql';
import { ViewerObject } from '../users/user.types.js';

@ObjectType('AuthPayload')
export class AuthPayload {
  @Field(() => String, { description: 'Send as `Authorization: Bearer <token>` (GraphQL) or `x-auth-token` (REST).' }) token!: string;
  @Field(() => ViewerObject) viewer!: ViewerObject;
}

@InputType('SignUpInput')
export class SignUpInput {
  @Field(() => String) email!: string;
  @Field(() => String) password!: string;
  @Field(() => Boolean, { defaultValue: false }) hasOptedIn!: boolean;
}

@InputType('SignInInput')
export class SignInInput {
  @Field(() => String) email!: string;
  @Field(() => String) password!: string;
}

@InputType('ChangePasswordInput')
export class ChangePasswordInput {
  @Field(() => String, { nullable: true, description: 'Required unless checkPassword succeeded in the last ten minutes.' })
  oldPassword?: string;
  @Field(() => String) newPassword!: string;
}

@InputType('ResetPasswordInput')
export class ResetPasswordInput {
  @Field(() => String) email!: string;
  @Field(() => String, { description: 'The token from the reset email’s link.' }) token!: string;
  @Field(() => String) newPassword!: string;
}
